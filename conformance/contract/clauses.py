"""The clause map: a stable id for every rule of the text, and the way a verdict cites one.

Contract: ``clause_map()`` loads ``clauses.json`` beside this module (schema ``clauses``), once
per process, and refuses a map with a duplicate id or a reference (``notes``, ``restates``) to
an id it does not hold, as one InputError naming the file and the key path.  Each clause of
``orca-spec.txt`` is located by its line span and columns (1-based, the end column inclusive, in
the text with LF line ends and no trailing white space) and pinned by the SHA-256 of exactly
those characters; the suite never ships the words, only ``says``, a paraphrase in its own
words.  Notes of docs/spec-notes.md and rules of docs/porting.md have ids too; they are the
suite's own text, so they carry no hash.

``ClauseMap.check_ids(ids, file, key_path)`` is how every piece of the suite that names clauses
(scenarios, patches, census sites, vector families) has its ids checked: an unknown id is one
InputError with the nearest known id.  ``ClauseMap.cite(id)`` is the one wording of a citation:
the id, where the rule stands (lines of orca-spec.txt, or the note), and the paraphrase.
``verify_text(path)`` compares a copy of orca-spec.txt clause by clause: SAME (the hash at the
recorded place), MOVED (the same characters a few lines away), CHANGED (nowhere near).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import InputError, cannot_read, did_you_mean
from . import schema_files
from .spec_text import FILE_NAME, normalise

MAP_PATH = Path(__file__).with_name("clauses.json")
SPEC, NOTES, PORTING = "orca-spec.txt", "docs/spec-notes.md", "docs/porting.md"
SAME, MOVED, CHANGED = "SAME", "MOVED", "CHANGED"
MOVE_WINDOW = 40
"""How many lines up or down ``verify_text`` looks for a clause that is not where it was."""


@dataclass(frozen=True)
class Clause:
    """One rule: of the text (with its place and hash), of the notes, or of the porting guide."""

    id: str
    source: str
    normative: bool
    says: str
    lines: tuple[int, int] | None = None
    columns: tuple[int, int] | None = None
    sha256: str = ""
    note: str = ""
    anchor: str = ""
    notes: tuple[str, ...] = ()
    """The spec-notes that settle what this clause leaves open."""
    restates: tuple[str, ...] = ()
    """Clauses this one only repeats (the "choices" list of the text): what serves them serves it."""
    served_by: tuple[str, ...] = ()
    """Files of the suite that check an informative clause (the text's own "Checks")."""
    argued: str = ""
    """Why no control can fail the gate on this rule, where that is so."""

    def where(self) -> str:
        """``orca-spec.txt line 39`` / ``lines 39-40``, ``spec-notes note 16``, ``porting.md (the driver)``."""
        if self.source == SPEC and self.lines is not None:
            first, last = self.lines
            return f"{SPEC} line {first}" if first == last else f"{SPEC} lines {first}-{last}"
        if self.source == NOTES:
            return f"spec-notes note {self.note}" if self.note[0].isdigit() else f"spec-notes, {self.note}"
        return f"porting.md ({self.anchor.replace('-', ' ')})"


@dataclass
class ClauseMap:
    clauses: dict[str, Clause]
    text_sha256: str
    path: Path = MAP_PATH

    def get(self, clause_id: str) -> Clause:
        return self.clauses[clause_id]

    def normative(self) -> list[Clause]:
        return [c for c in self.clauses.values() if c.normative]

    def check_ids(self, ids: object, file: str, key_path: str) -> tuple[str, ...]:
        """The ids as a tuple; InputError for a non-list, an empty list or an unknown id."""
        if not isinstance(ids, (list, tuple)) or not ids or not all(isinstance(i, str) for i in ids):
            raise InputError(file, key_path, "a non-empty list of clause ids (conformance/contract/clauses.json)")
        for k, clause_id in enumerate(ids):
            if clause_id not in self.clauses:
                hint = did_you_mean(clause_id, list(self.clauses))
                raise InputError(file, f"{key_path}[{k}]", f"unknown clause {clause_id!r}{hint} "
                                 "(ids: orca-conformance clauses --list)")
        return tuple(ids)

    def cite(self, clause_id: str) -> str:
        """``agents.cutoff (orca-spec.txt line 39, in short: <paraphrase>; spec-notes note 16)``: the
        paraphrase is the suite's words, marked as such, never the text's."""
        clause = self.clauses[clause_id]
        notes = [self.clauses[n].where() for n in clause.notes if n in self.clauses]
        tail = f"; {', '.join(notes)}" if notes else ""
        return f"{clause.id} ({clause.where()}, in short: {clause.says.rstrip('.')}{tail})"

    def expand(self, ids: tuple[str, ...] | list[str]) -> set[str]:
        """The ids with the notes they cite and the clauses that restate them (what a piece that
        names them serves)."""
        out = set(ids)
        for clause_id in ids:
            out.update(self.clauses[clause_id].notes)
        for clause in self.clauses.values():
            if set(clause.restates) & out:
                out.add(clause.id)
        return out


def _tuple(value) -> tuple:
    return tuple(value) if value is not None else ()


def parse_map(data: object, file: str) -> ClauseMap:
    """A validated clause map; InputError naming the file and the key path otherwise."""
    found = schema_files.problem("clauses", data)
    if found is not None:
        raise InputError(file, *found)
    clauses: dict[str, Clause] = {}
    for k, raw in enumerate(data["clauses"]):
        if raw["source"] == SPEC and raw["lines"][0] > raw["lines"][1]:
            raise InputError(file, f"clauses[{k}].lines", "the first line comes after the last")
        if raw["id"] in clauses:
            raise InputError(file, f"clauses[{k}].id", f"duplicate clause id {raw['id']!r}")
        clauses[raw["id"]] = Clause(
            raw["id"], raw["source"], raw["normative"], raw["says"],
            tuple(raw["lines"]) if "lines" in raw else None, tuple(raw["columns"]) if "columns" in raw else None,
            raw.get("sha256", ""), raw.get("note", ""), raw.get("anchor", ""), _tuple(raw.get("notes")),
            _tuple(raw.get("restates")), _tuple(raw.get("served_by")), raw.get("argued", ""))
    for k, raw in enumerate(data["clauses"]):
        for key in ("notes", "restates"):
            for m, ref in enumerate(raw.get(key, ())):
                if ref not in clauses:
                    raise InputError(file, f"clauses[{k}].{key}[{m}]", f"unknown clause {ref!r}{did_you_mean(ref, list(clauses))}")
    return ClauseMap(clauses, data["text"]["sha256"])


def read_map(path: Path) -> ClauseMap:
    from ..jsonfile import read_json
    parsed = parse_map(read_json(path), str(path))
    parsed.path = path
    return parsed


@lru_cache(maxsize=1)
def clause_map() -> ClauseMap:
    """The suite's own clause map (read and checked once per process)."""
    return read_map(MAP_PATH)


# ----------------------------------------------------------------------------- a copy of the text

def clause_text(lines: list[str], clause: Clause, shift: int = 0) -> str | None:
    """The characters a clause spans in ``lines`` (the text's lines), moved by ``shift`` lines;
    None when the span falls outside the text."""
    assert clause.lines is not None and clause.columns is not None
    first, last = clause.lines[0] + shift, clause.lines[1] + shift
    if first < 1 or last > len(lines):
        return None
    start, end = clause.columns
    if first == last:
        return lines[first - 1][start - 1:end]
    return "\n".join([lines[first - 1][start - 1:]] + lines[first:last - 1] + [lines[last - 1][:end]])


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ClauseCheck:
    clause: Clause
    status: str
    """SAME, MOVED or CHANGED."""
    lines: tuple[int, int] | None = None
    """Where the clause stands in the copy (SAME, MOVED)."""


def text_lines(data: bytes) -> list[str]:
    """A copy of the text as the map counts it: LF line ends, no trailing white space."""
    return normalise(data).decode("utf-8", errors="replace").split("\n")


def verify_lines(lines: list[str], clauses: ClauseMap) -> list[ClauseCheck]:
    """Every clause of the text, found at its place, a few lines away, or not at all."""
    out = []
    for clause in clauses.clauses.values():
        if clause.source != SPEC:
            continue
        for shift in sorted(range(-MOVE_WINDOW, MOVE_WINDOW + 1), key=abs):
            text = clause_text(lines, clause, shift)
            if text is not None and _digest(text) == clause.sha256:
                status = SAME if shift == 0 else MOVED
                out.append(ClauseCheck(clause, status, (clause.lines[0] + shift, clause.lines[1] + shift)))
                break
        else:
            out.append(ClauseCheck(clause, CHANGED))
    return out


def verify_text(path: Path, clauses: ClauseMap | None = None) -> list[ClauseCheck]:
    """``verify_lines`` of a copy of orca-spec.txt; InputError when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise cannot_read(path, err) from None
    return verify_lines(text_lines(data), clauses or clause_map())


@dataclass
class Citation:
    """The clauses a red cell cites: the one it names first, and others that may apply."""

    primary: str
    others: list[str] = field(default_factory=list)
    found: bool = True
    """False when the suite could not tell the clause and names the nearest primitive's instead."""
    reading: str = ""
    """The other reading of one decision that reproduces the port's result, in words, if one does."""

    @property
    def ids(self) -> list[str]:
        return [self.primary] + [c for c in self.others if c != self.primary]


__all__ = ["Clause", "ClauseMap", "ClauseCheck", "Citation", "clause_map", "read_map", "parse_map", "verify_text",
           "verify_lines", "clause_text", "text_lines", "SAME", "MOVED", "CHANGED", "FILE_NAME"]
