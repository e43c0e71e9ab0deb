"""A variant's sources and its build: the one place that edits runners/c and names the C flags.

Contract: ``variant_tree(variant)`` is a copy of runners/c (without its docs, controls, stored
variants, misreadings, operator files and CLI) with the variant's line replaced (its newline
kept) and, when the new line calls a function of the variant's prelude, the prelude after the
file's last ``#include``.  It is cached by the variant (id, line, prelude) and
``sources_digest()``, built under a temporary name and renamed into place, so parallel judges
share it.  ``variant_build(tree, sanitizer)`` is how every variant is compiled, by the judging
worker, the evidence and the band search alike: ``DETERMINISM_FLAGS``, ``-O2`` and, when a
sanitizer is named, its compile flags, with the system's C compiler; builds under a sanitizer are
named apart (``mutant-address``), so their artifacts are cached apart.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

from ...runners.build.layer import DETERMINISM_FLAGS, cache_root, system_cc
from ...runners.build.sanitizer import compile_flags
from ...runners.build.sources import C_DIR, cached_tree
from ...runners.cffi_runner import CVariant
from .variant import Variant

LEFT_OUT = ("*.md", "controls", "variants", "misreadings", "operators", "cli")
"""What a variant's tree does not copy: nothing the library's build reads."""


def sources_digest(source_dir: Path = C_DIR) -> str:
    """SHA-256 of the production C sources a variant is made from (solver and harness)."""
    digest = hashlib.sha256()
    for path in sorted(source_dir.rglob("*.[ch]")):
        if "cli" not in path.relative_to(source_dir).parts:
            digest.update(path.relative_to(source_dir).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def edited_lines(variant: Variant, lines: list[str]) -> list[str]:
    """``lines`` (a file's, newlines kept) with the variant's line replaced and its prelude added
    when the new line calls one of the prelude's functions."""
    out = list(lines)
    newline = "\n" if out[variant.line - 1].endswith("\n") else ""
    out[variant.line - 1] = variant.mutated + newline
    names = re.findall(r"\b(oc_\w+)\s*\(", variant.prelude)
    if variant.prelude and any(name in variant.mutated for name in names):
        last = max(k for k, x in enumerate(out) if x.startswith("#include"))
        out.insert(last + 1, "\n" + variant.prelude.rstrip() + "\n")
    return out


def variant_tree(variant: Variant, source_dir: Path = C_DIR) -> Path:
    """A cached copy of ``source_dir`` (runners/c) with the variant applied."""
    text = f"{variant.id}\0{variant.path}\0{variant.line}\0{variant.mutated}\0{variant.prelude}\0"
    key = hashlib.sha256((text + sources_digest(source_dir)).encode()).hexdigest()[:20]

    def fill(folder: Path) -> None:
        shutil.copytree(source_dir, folder, ignore=shutil.ignore_patterns(*LEFT_OUT))
        target = folder / variant.path
        target.write_text("".join(edited_lines(variant, target.read_text().splitlines(keepends=True))))
    return cached_tree(cache_root() / "variant-trees" / key, fill)


def variant_build(tree: Path, sanitizer: str | None = None, name: str = "mutant") -> CVariant:
    """The build of a variant's tree: the determinism flags, -O2, and the sanitizer's flags.
    ``name`` is the runner's name (a red cell's headline shows it: ``[operator]``)."""
    flags = DETERMINISM_FLAGS + ("-O2",) + (compile_flags(sanitizer) if sanitizer else ())
    return CVariant(name if sanitizer is None else f"{name}-{sanitizer}", system_cc(), flags, tree)
