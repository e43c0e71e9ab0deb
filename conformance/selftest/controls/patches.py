"""Deliberately wrong builds of the C port, made from the production sources plus a patch.

Contract: a ``SourcePatch`` is one or more ``Edit``s, each naming one file of runners/c, a
text that must occur in it exactly once, and its replacement.  ``patched_tree(patches)``
copies runners/c into a cache folder keyed by the patches and applies them; the production
sources never carry a switch for it.  Tests (tests/c_variants/), the negative controls and the
misreading catalogue (runners/c/misreadings/) use this to prove that the gate catches what
careless ports do.

A patch file is ``{"why", "file", "find", "replace"}`` for one edit, or
``{"why", "edits": [{"file", "find", "replace"}, ...]}`` for several (applied in order).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from ...contract import schema_files
from ...runners.build.layer import cache_root
from ...runners.build.sources import C_DIR, cached_tree
from ...errors import InputError


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of ``find`` in ``file`` (a path under runners/c, such as
    ``solver/neighbors.c`` or ``harness/driver.c``) by ``replace``."""

    file: str
    find: str
    replace: str


@dataclass(frozen=True)
class SourcePatch:
    name: str
    edits: tuple[Edit, ...]
    why: str = ""

    @classmethod
    def single(cls, name: str, file: str, find: str, replace: str, why: str = "") -> "SourcePatch":
        return cls(name, (Edit(file, find, replace),), why)


def read_patch_data(path: Path) -> dict:
    """The JSON object of a patch file, valid against its schema (InputError naming the file,
    the key path and the reason otherwise)."""
    return schema_files.read_valid(path, "patch")


def load_patch(path: Path) -> SourcePatch:
    """One patch file: {"file", "find", "replace", "why"} or {"edits": [...], "why"}."""
    data = read_patch_data(path)
    edits = tuple(Edit(e["file"], e["find"], e["replace"]) for e in data.get("edits", [data]))
    return SourcePatch(path.stem, edits, data["why"])


def patched_tree(patches: tuple[SourcePatch, ...]) -> Path:
    """A copy of runners/c (library sources, headers and cli/) with the patches applied."""
    digest = hashlib.sha256()
    for p in patches:
        for e in p.edits:
            digest.update(json.dumps([e.file, e.find, e.replace]).encode())
    for source in sorted(C_DIR.rglob("*.[ch]")):
        digest.update(str(source.relative_to(C_DIR)).encode() + source.read_bytes())

    def fill(folder: Path) -> None:
        shutil.copytree(C_DIR, folder, ignore=shutil.ignore_patterns("*.md", "variants", "controls", "misreadings"))
        for p in patches:
            for k, e in enumerate(p.edits):
                target = folder / e.file
                text = target.read_text()
                if text.count(e.find) != 1:
                    where = "find" if len(p.edits) == 1 else f"edits[{k}].find"
                    raise InputError(p.name, where, f"must occur exactly once in {e.file} (found {text.count(e.find)})")
                target.write_text(text.replace(e.find, e.replace))
    return cached_tree(cache_root() / "variants" / digest.hexdigest()[:20], fill)
