"""Which clauses each primitive vector family serves: a view of the family records.

Contract: ``FAMILY_CLAUSES`` maps every family of the registry (data/vector_family.py, with any
registered one) to the clauses of ``contract/clauses.json`` that its primitive implements, the
main one first; a red vectors row cites the first.  It is computed from the records on access
(each record's ``clauses``), so nothing is written here.  Where one family spans several
clauses (agent_constraint: the overlap test, the cutoff, the legs, the responsibility), the
census's site table (data/site_clauses.py) tells which of its cases sit on which clause's
boundary.  ``tests/test_clauses.py`` holds the records' clauses to the map.
"""

from __future__ import annotations

from .vector_family import FAMILIES

FAMILY_CLAUSES = FAMILIES.view(lambda f: f.clauses, lambda f: bool(f.clauses))
"""family name -> its clauses (a live view of the records; a family that names none is absent,
which selftest/clause_coverage.py reports)."""
