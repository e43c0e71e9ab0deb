"""docs/protocol-schemas.md lists every protocol schema file, once, with a link that resolves.

The schema files under conformance/schemas/protocol/ are the one copy; the page only links
to them, so a schema added or renamed without the page fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ROOT

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


def test_every_schema_of_the_suite_is_listed_and_every_committed_file_follows_it() -> None:
    """One truth per format: each schema under conformance/schemas/ is on the page, and the
    committed files of its format are valid against it."""
    import json

    from conformance.contract import schema_files
    text = PAGE.read_text(encoding="utf-8")
    own = sorted(p.name for p in (ROOT / "conformance" / "schemas").glob("*.schema.json"))
    assert {"golden.schema.json", "vectors.schema.json", "patch.schema.json", "equivalent.schema.json"} <= set(own)
    for name in own:
        assert f"(../conformance/schemas/{name})" in text, name
    committed = {"golden": sorted((ROOT / "goldens").glob("*/*.json")),
                 "vectors": sorted((ROOT / "goldens" / "vectors").glob("*.json")),
                 "patch": sorted((ROOT / "runners" / "c").glob("controls/*.json"))
                 + sorted((ROOT / "runners" / "c").glob("misreadings/*.json"))
                 + sorted((ROOT / "tests" / "c_variants").glob("*.json")),
                 "equivalent": [ROOT / "docs" / "mutation" / "equivalent.json"],
                 "operator": [p for p in sorted((ROOT / "runners" / "c" / "operators").glob("*.json"))
                              if p.name != "scopes.json"],
                 "operator-scopes": [ROOT / "runners" / "c" / "operators" / "scopes.json"],
                 "operator-equivalent": [ROOT / "docs" / "operators" / "equivalent.json"]}
    committed["golden"] = [p for p in committed["golden"] if p.parent.name != "vectors"]
    for name, files in committed.items():
        assert files, name
        for path in files:
            assert schema_files.problem(name, json.loads(path.read_text(encoding="utf-8"))) is None, path


@pytest.mark.parametrize("kind, text, key", [
    ("patch", '{"why": "x", "edits": [{"file": "a.c", "replace": "y"}]}', "edits[0].find"),
    ("patch", '{"why": "x", "file": "a.c", "find": "a", "replace": "b", "edits": []}', ""),
    ("patch", '{"file": "a.c", "find": "a", "replace": "b"}', "why"),
    ("equivalent", '{"equivalent": [{"id": "a.c:1:delete:ab", "reason": "r", "extra": 1}]}', "equivalent[0].extra"),
    ("equivalent", '{"equivalent": [{"id": "not an id", "reason": "r"}]}', "equivalent[0].id"),
    ("vectors", '{"format": "orca-vectors/1", "family": "uniform", "args": ["d"], "result": ["d"], '
                '"cases": [{"args": [], "result": []}]}', "args"),
    ("golden", '{"format": "orca-golden/1"}', "id"),
])
def test_a_file_that_breaks_its_schema_is_one_error_naming_the_key(tmp_path: Path, kind: str, text: str,
                                                                   key: str) -> None:
    from conformance.data import goldens, vectors
    from conformance.selftest.variants import review
    from conformance.selftest.controls import patches as variants
    from conformance.errors import InputError
    path = tmp_path / "file.json"
    path.write_text(text, encoding="utf-8")
    load = {"patch": variants.load_patch, "equivalent": review.load_equivalent, "vectors": vectors.read_vectors,
            "golden": goldens.read_golden}[kind]
    with pytest.raises(InputError) as info:
        load(path)
    assert info.value.file == str(path) and info.value.key_path == key, (info.value.key_path, info.value.reason)
