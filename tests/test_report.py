"""Reports, merging across machines, the HTML page and the pictures."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.contract.clauses import clause_map

from conformance import cli
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.errors import InputError
from conformance.judge.matrix import DIVERGED, run_matrix
from conformance.reports.merge import load_report, merge_reports
from conformance.reports.report import write_reports
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.contract.scenario import load_suite
from conformance.data.suite import Suite
from conformance.selftest.controls.patches import load_patch, patched_tree
from conformance.contract.schema_files import validator
from conftest import ROOT

CHOSEN = ("orca/crossing-blocks", "orca/head-on-exact")


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("reports")
    suite = Suite(ROOT)
    scenarios = [s for s in load_suite(ROOT / "scenarios") if s.id in CHOSEN]
    good = run_matrix(scenarios, ["c"], suite.goldens_dir)
    write_reports(good, suite, out / "x64")
    tree = patched_tree((load_patch(ROOT / "tests" / "c_variants" / "hypot-length.json"),))
    bad_runner = CffiRunner(CVariant("c-hypot", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    bad = run_matrix(scenarios, [bad_runner], suite.goldens_dir)
    assert any(c.status == DIVERGED for c in bad.cells.values())
    write_reports(bad, suite, out / "other", runners={bad_runner.id: bad_runner})
    return out / "x64" / "report.json", out / "other" / "report.json"


def test_report_matches_its_schema_and_formats(reports) -> None:
    good, bad = reports
    for path in reports:
        data = json.loads(path.read_text())
        validator("report").validate(data)
        assert data["header"]["goldens_digest"].startswith("sha256:")
        assert data["summary"]["compared"] > 0
        junit = ET.parse(path.parent / "junit.xml").getroot()
        assert junit.tag == "testsuites" and len(junit.findall(".//testcase")) == len(data["cells"])
    bad_junit = ET.parse(bad.parent / "junit.xml").getroot()
    assert bad_junit.findall(".//failure"), "a diverged cell is a JUnit failure"
    # every red cell cites a clause: in report.json, first in the JUnit message, in matrix.md
    red = [c for c in json.loads(bad.read_text())["cells"] if c["status"] == "DIVERGED"]
    assert red and all(c["clauses"] and all(i in clause_map().clauses for i in c["clauses"]) for c in red)
    for failure in bad_junit.findall(".//failure"):
        assert failure.get("message").startswith("["), failure.get("message")[:80]
    assert "breaks " in (bad.parent / "matrix.md").read_text() and "clauses.html#" in (bad.parent / "matrix.html").read_text()
    md = (good.parent / "matrix.md").read_text()
    assert "| `orca/crossing-blocks` | PASS |" in md


def test_merge_two_machines_with_a_diverged_cell(reports, tmp_path: Path, capsys) -> None:
    code = cli.main(["merge", str(reports[0]), str(reports[1]), "--out", str(tmp_path / "merged")])
    out = capsys.readouterr().out
    assert code == 1 and "diverged" in out  # a diverged cell fails the merged gate
    merged = json.loads((tmp_path / "merged" / "matrix.json").read_text())
    assert len(merged["columns"]) == 2 and all("/" in c for c in merged["columns"])
    html = (tmp_path / "merged" / "matrix.html").read_text()
    assert "<svg" in html and "DIVERGED" in html and "agent " in html
    assert 'class="divergence-chart"' in html and "max |Δposition|" in html  # the growth of the difference
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")  # self-contained
    md = (tmp_path / "merged" / "matrix.md").read_text()
    assert "DIVERGED@" in md and "PASS" in md
    # both columns ran x86-64: the merge says they disagree, and where
    (group,) = merged["architectures"]
    assert group["architecture"] == "x86_64" and not group["agree"] and group["differing"]
    assert "## Same architecture, other machines and engines" in md and "| x86_64 |" in md and "NO: " in md


def test_merge_confirms_one_architecture_on_two_engines(reports) -> None:
    """A native column on one machine and an emulated one elsewhere (here: the same report
    twice, the second relabelled as the arm64 column of an x86 machine, the first as a native
    arm64 machine's c column) agree when every cell of both is PASS."""
    good = load_report(reports[0])
    native = json.loads(json.dumps(good))
    for info in native["runners"].values():
        info["architecture"] = "arm64"
    native["header"]["platform"] = "linux-aarch64"
    emulated = json.loads(json.dumps(good))
    for info in emulated["runners"].values():
        info["architecture"] = "aarch64"
    merged = merge_reports([("native", native), ("emulated", emulated)])
    (group,) = merged["architectures"]
    assert group["architecture"] == "aarch64" and group["agree"] and len(group["columns"]) == 2
    assert group["passed_cells"] == 2 * len(merged["rows"])


def test_merge_refuses_different_goldens(reports, tmp_path: Path) -> None:
    other = tmp_path / "report.json"
    data = json.loads(reports[1].read_text())
    data["header"]["goldens_digest"] = "sha256:" + "0" * 64
    other.write_text(json.dumps(data))
    with pytest.raises(InputError) as info:
        merge_reports([(str(reports[0]), load_report(reports[0])), (str(other), load_report(other))])
    assert "different goldens" in info.value.reason and str(other) in info.value.reason


def test_bad_report_is_one_clear_error(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "report.json"
    broken.write_text(json.dumps({"format": "orca-report/1", "header": {}}))
    assert cli.main(["merge", str(broken), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "report.json" in err and "Traceback" not in err


@pytest.mark.parametrize("suffix", [".svg", ".png", ".gif"])
def test_render_writes_a_picture(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"pair{suffix}"
    assert cli.main(["render", "orca/head-on-perturbed", "--runner", "c", "--out", str(out)]) == 0
    assert out.stat().st_size > 500
    if suffix == ".svg":
        assert out.read_text().startswith("<svg") and "<polyline" in out.read_text()
    else:
        from PIL import Image
        with Image.open(out) as image:
            assert image.size[0] >= 700
            if suffix == ".gif":
                assert image.n_frames > 10


def test_render_rejects_unknown_picture_type(tmp_path: Path) -> None:
    assert cli.main(["render", "orca/head-on-perturbed", "--out", str(tmp_path / "x.bmp")]) == 2


def test_junit_holds_any_reason_a_port_can_give() -> None:
    """Reasons carry a port's stderr: control characters (colour codes) and markup must still
    give well-formed XML that a CI system can read back."""
    from conformance.reports.report import junit_xml
    reason = "port exited \x1b[31mred\x1b[0m <b>&amp;</b> \"quoted\" \x00 end"
    report = {"header": {"platform": "linux-x86_64"}, "runners": {"exec:x": {}},
              "cells": [{"row": "orca/a", "runner": "exec:x", "status": "ERROR", "reason": reason, "seconds": 0.5},
                        {"row": "orca/b", "runner": "exec:x", "status": "SKIPPED", "reason": "no <tool>", "seconds": 0}]}
    root = ET.fromstring(junit_xml(report))
    suite = root.find("testsuite")
    assert suite.get("errors") == "1" and suite.get("skipped") == "1" and suite.get("tests") == "2"
    error = root.find(".//testcase[@name='orca/a']/error")
    assert error is not None and "<b>&amp;</b>" in error.text and "red" in error.text and "\x1b" not in error.text
    assert root.find(".//testcase[@name='orca/b']/skipped").get("message") == "no <tool>"


def test_every_report_file_carries_the_suite_version_and_the_goldens_digest(reports) -> None:
    header = load_report(reports[0])["header"]
    version, digest = header["suite_version"], header["goldens_digest"]
    for suite in ET.parse(reports[0].parent / "junit.xml").getroot().findall("testsuite"):
        properties = {p.get("name"): p.get("value") for p in suite.findall("properties/property")}
        assert properties["suite_version"] == version and properties["goldens_digest"] == digest
    for name in ("matrix.md", "matrix.html"):
        text = (reports[0].parent / name).read_text(encoding="utf-8")
        assert f"Suite {version}" in text and digest in text, name


def test_merge_warns_of_reports_from_other_suite_versions(reports, tmp_path: Path, capsys) -> None:
    other = tmp_path / "other" / "report.json"
    other.parent.mkdir()
    data = json.loads(reports[1].read_text())
    data["header"]["suite_version"] = "9.9.9"
    other.write_text(json.dumps(data))
    assert cli.main(["merge", str(reports[0]), str(other), "--out", str(tmp_path / "merged")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("warning: ") and "different suite versions" in err[0], err
    assert "9.9.9" in err[0] and str(other) in err[0]
    md = (tmp_path / "merged" / "matrix.md").read_text()
    assert "> **Warning:** the reports come from different suite versions" in md
    merged = json.loads((tmp_path / "merged" / "matrix.json").read_text())
    assert merged["header"]["suite_version"].endswith(", 9.9.9") and len(merged["columns"]) == 2


def test_a_not_provided_vectors_row_in_every_report(tmp_path: Path, capsys) -> None:
    """A port that provides no primitive family: NOT PROVIDED is counted on its own in the
    summary, skipped with the reason in junit.xml, one line in matrix.md, a cell of its own class
    in matrix.html, and the runner's info says what it provides; merge counts it too."""
    from conformance.judge.matrix import NOT_PROVIDED
    from conformance.runners.reference import ReferenceRunner
    from conformance.selftest.controls.careless import AgentsFirstSimulator
    suite = Suite(ROOT)
    scenarios = [s for s in load_suite(ROOT / "scenarios") if s.id == "orca/zero-agents"]
    result = run_matrix(scenarios, [ReferenceRunner("careless", AgentsFirstSimulator, "careless port")],
                        suite.goldens_dir, with_protocol=False)
    write_reports(result, suite, tmp_path / "r", divergence=False)
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    validator("report").validate(data)
    assert data["summary"][NOT_PROVIDED] == 1 and data["summary"]["PASS"] == 1
    assert data["runners"]["careless"]["provides"] == []
    row = next(c for c in data["cells"] if c["row"] == "vectors")
    assert row["status"] == NOT_PROVIDED and row["reason"].startswith("not provided (the port's hello): ")
    junit = ET.parse(tmp_path / "r" / "junit.xml").getroot()
    suite_xml = junit.find("testsuite")
    assert suite_xml.get("skipped") == "1" and suite_xml.get("failures") == "0" and suite_xml.get("errors") == "0"
    skipped = junit.find(".//testcase[@name='vectors']/skipped")
    assert skipped is not None and skipped.get("message") == row["reason"][:500]
    md = (tmp_path / "r" / "matrix.md").read_text()
    assert "| `vectors` | NOT PROVIDED |" in md and "1 not provided, 0 skipped." in md
    assert f"- NOT PROVIDED `vectors` on `careless`: {row['reason']}" in md
    html = (tmp_path / "r" / "matrix.html").read_text()
    assert '<td class="NOT_PROVIDED"' in html and "td.NOT_PROVIDED {" in html and "1 not provided" in html
    assert cli.main(["merge", str(tmp_path / "r" / "report.json"), "--out", str(tmp_path / "m")]) == 0
    assert "1 passed, 0 diverged, 0 errors, 1 not provided, 0 skipped" in capsys.readouterr().out
    merged = json.loads((tmp_path / "m" / "matrix.json").read_text())
    assert merged["summary"][NOT_PROVIDED] == 1
