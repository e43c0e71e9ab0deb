"""The ``spec`` and ``clauses`` commands' reports: the text checked clause by clause, the coverage table.

Contract: ``spec_report(path, scenarios, say)`` says whether a copy of orca-spec.txt is the pinned
version, then how many clauses stand in place, moved or changed, and for each changed clause
what in the suite depends on it; True when the copy differs.  ``clauses_report`` prints the
coverage table (clause_coverage.py), writes docs/clauses.md with ``write``, and is True while a
clause is OPEN or a piece of the suite names no clause.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..contract import spec_text
from ..contract.clauses import CHANGED, MOVED, clause_map, verify_text
from ..jsonfile import write_text_atomic
from .clause_coverage import OPEN, coverage, dependents, docs_path, format_rows, to_markdown, totals, unnamed_pieces


def spec_report(path: Path, scenarios: Callable[[], list], say: Callable[[str], None]) -> bool:
    result = spec_text.check(path)
    say(result.message(path))
    checks = verify_text(path)
    changed = [c for c in checks if c.status == CHANGED]
    moved = [c for c in checks if c.status == MOVED]
    say(f"clauses: {len(checks)} of orca-spec.txt: {len(checks) - len(changed) - len(moved)} in place, "
        f"{len(moved)} moved, {len(changed)} changed")
    for check in moved[:8]:
        say(f"  MOVED   {check.clause.id}: now lines {check.lines[0]}-{check.lines[1]}")
    if len(moved) > 8:
        say(f"  ... and {len(moved) - 8} more moved (the same words, lines added or removed above them)")
    if changed:
        depends = dependents(scenarios())
        for check in changed:
            say(f"  CHANGED {check.clause.id} ({check.clause.where()}: {check.clause.says})")
            for kind, names in depends.get(check.clause.id, {}).items():
                say(f"          {kind}: {', '.join(names)}")
    return not result.exact


def clauses_report(scenarios: list, root: Path, write: bool, listing: bool, say: Callable[[str], None]) -> bool:
    if listing:
        for clause in clause_map().clauses.values():
            say(f"{clause.id:<28} {clause.where():<26} {clause.says}")
        return False
    rows = coverage(scenarios, root)
    say(format_rows(rows))
    problems = unnamed_pieces(scenarios)
    for problem in problems:
        say(f"unnamed: {problem}")
    t = totals(rows)
    say(f"clauses: {len(rows)}: " + ", ".join(f"{n} {k.lower()}" for k, n in sorted(t.items())))
    if write:
        write_text_atomic(docs_path(root), to_markdown(rows))
        say(f"wrote {docs_path(root)}")
    return bool(t.get(OPEN)) or bool(problems)
