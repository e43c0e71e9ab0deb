"""docs/protocol-schemas.md lists every protocol schema file, once, with a link that resolves.

The schema files under conformance/schemas/protocol/ are the one copy; the page only links
to them, so a schema added or renamed without the page fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGE = DOCS / "protocol-schemas.md"
SCHEMAS = ROOT / "conformance" / "schemas" / "protocol"
ROW = re.compile(r"^\| `(?P<message>[a-z-]+)` \|.*\| \[(?P<text>[^\]]+)\]\((?P<link>[^)]+)\) \|$")


def rows() -> list[re.Match]:
    return [m for line in PAGE.read_text().splitlines() if (m := ROW.match(line))]


def test_every_schema_file_is_listed_once_with_a_working_link() -> None:
    files = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert files, "no protocol schemas found"
    listed = [m["link"] for m in rows()]
    targets = [(DOCS / link).resolve() for link in listed]
    assert sorted(t.name for t in targets) == files  # each file once, nothing else
    for m, target in zip(rows(), targets):
        assert target.parent == SCHEMAS.resolve() and target.is_file(), m["link"]
        assert m["text"] == target.name == f"{m['message']}.schema.json"
        # the row names the message the schema describes (its title ends with the same words)
        title = json.loads(target.read_text())["title"]
        assert title.endswith(m["message"].replace("-", " ")), (title, m["message"])


def test_protocol_md_points_to_the_schema_page() -> None:
    assert "(protocol-schemas.md)" in (DOCS / "protocol.md").read_text()
