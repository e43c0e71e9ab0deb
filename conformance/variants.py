"""Deliberately wrong builds of the C port, made from the production sources plus a patch.

Contract: a ``SourcePatch`` names one file of runners/c, a text that must occur in it exactly
once, and its replacement.  ``patched_tree(patches)`` copies runners/c into a cache folder
keyed by the patches and applies them; the production sources never carry a switch for it.
Tests (tests/c_variants/) and the negative controls use this to prove that the gate catches
what careless ports do.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from .build import C_DIR, cache_root
from .errors import InputError


@dataclass(frozen=True)
class SourcePatch:
    name: str
    file: str
    find: str
    replace: str
    why: str = ""


def load_patch(path: Path) -> SourcePatch:
    """One patch file: {"file", "find", "replace", "why"}."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(str(path), "", f"cannot read patch: {err}") from None
    for key in ("file", "find", "replace"):
        if not isinstance(data.get(key), str):
            raise InputError(str(path), key, "missing or not a string")
    return SourcePatch(path.stem, data["file"], data["find"], data["replace"], data.get("why", ""))


def patched_tree(patches: tuple[SourcePatch, ...]) -> Path:
    """A copy of runners/c (library sources, headers and cli/) with the patches applied."""
    digest = hashlib.sha256()
    for p in patches:
        digest.update(json.dumps([p.file, p.find, p.replace]).encode())
    for source in sorted(C_DIR.rglob("*.[ch]")):
        digest.update(str(source.relative_to(C_DIR)).encode() + source.read_bytes())
    folder = cache_root() / "variants" / digest.hexdigest()[:20]
    if (folder / ".complete").exists():
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(C_DIR, folder, ignore=shutil.ignore_patterns("*.md", "variants", "controls"))
    for p in patches:
        target = folder / p.file
        text = target.read_text()
        if text.count(p.find) != 1:
            raise InputError(p.name, "find", f"must occur exactly once in {p.file} (found {text.count(p.find)})")
        target.write_text(text.replace(p.find, p.replace))
    (folder / ".complete").write_text("ok\n")
    return folder
