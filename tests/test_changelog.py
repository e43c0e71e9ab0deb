"""CHANGELOG.md: the compatibility rule, and the pins of each version (goldens digest, protocol)
held to the checkout, so that a golden or protocol change cannot land without a record in the
changelog (Unreleased pins what the next version will ship, until it is released); the version
a report carries is the one ``--version`` prints."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conformance import __version__, cli
from conformance.contract import schema_files
from conformance.reports.report import goldens_digest
from conformance.runners.exec_runner import ACCEPTED_PROTOCOLS, PROTOCOL_VERSION
from conftest import ROOT

CHANGELOG = ROOT / "CHANGELOG.md"
SECTION = re.compile(r"^## (Unreleased|\d+\.\d+\.\d+)\b.*$", re.MULTILINE)
PINS = re.compile(r"Pins: goldens `(sha256:[0-9a-f]{64})`,\s+port protocol (\d+)\.")


def sections() -> dict[str, str]:
    """Each version's section (and Unreleased), by its heading's version, in the file's order."""
    text = CHANGELOG.read_text(encoding="utf-8")
    found = list(SECTION.finditer(text))
    return {m.group(1): text[m.end():found[i + 1].start() if i + 1 < len(found) else len(text)]
            for i, m in enumerate(found)}


def released() -> list[tuple[tuple[int, ...], str, int]]:
    """(version, goldens digest, protocol) of every released version, newest first."""
    out = []
    for name, body in sections().items():
        if name == "Unreleased":
            continue
        pins = PINS.search(body)
        assert pins, f"CHANGELOG.md: {name} records no 'Pins: goldens `sha256:...`, port protocol N.'"
        out.append((tuple(map(int, name.split("."))), pins.group(1), int(pins.group(2))))
    return out


def current() -> tuple[str, int]:
    """(goldens digest, protocol) the checkout must hold: the pins Unreleased records when a change
    of them waits for its version, else the newest released version's."""
    pins = PINS.search(sections()["Unreleased"])
    if pins:
        return pins.group(1), int(pins.group(2))
    _, digest, protocol = released()[0]
    return digest, protocol


def test_the_changelog_states_the_compatibility_rule() -> None:
    text = " ".join(CHANGELOG.read_text(encoding="utf-8").split())
    for words in ("**Major**", "**Minor**", "**Patch**", "a golden", "hash rule", "port protocol",
                  "new scenario", "vector family", "diagnoses"):
        assert words in text, words
    assert list(sections())[0] == "Unreleased"


def test_the_newest_version_is_the_packages_and_versions_only_go_down() -> None:
    versions = [v for v, _, _ in released()]
    assert versions, "CHANGELOG.md names no released version"
    assert ".".join(map(str, versions[0])) == __version__
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)


def test_the_current_versions_goldens_are_the_checkouts() -> None:
    recorded, _ = current()
    assert recorded == goldens_digest(ROOT / "goldens"), (
        "the goldens differ from the ones CHANGELOG.md records for this version: a changed golden is a "
        "major version and a new one a minor version; give the version its own section with the new digest")


def test_the_current_versions_protocol_is_the_harnesss() -> None:
    """The newest protocol pinned is the one the harness asks for first; the hello schemas accept
    exactly the versions the harness speaks."""
    _, protocol = current()
    assert protocol == PROTOCOL_VERSION == max(ACCEPTED_PROTOCOLS)
    for name in ("protocol/hello-request", "protocol/hello-reply"):
        versions = schema_files.validator(name).schema["properties"]["protocol"]["enum"]
        assert sorted(versions) == sorted(ACCEPTED_PROTOCOLS), name
    assert f'`{{"cmd": "hello", "protocol": {protocol}}}`' in (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_each_step_between_released_versions_follows_the_rule() -> None:
    """A changed protocol moves the major number; other goldens move at least the minor one."""
    for (new, new_goldens, new_protocol), (old, old_goldens, old_protocol) in zip(released(), released()[1:]):
        if new_protocol != old_protocol:
            assert new[0] > old[0], (new, old)
        if new_goldens != old_goldens:
            assert new[:2] > old[:2], (new, old)


def test_the_version_printed_is_the_one_a_report_carries(tmp_path: Path, capsys) -> None:
    command = shutil.which("orca-conformance")
    argv = [command] if command else [sys.executable, "-m", "conformance"]
    printed = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=60, check=True).stdout
    assert printed.split() == ["orca-conformance", __version__]
    assert cli.main(["--suite", str(ROOT), "matrix", "--runners", "reference", "--no-vectors", "--no-protocol",
                     "--scenarios", "orca/zero-agents", "--report", str(tmp_path)]) == 0
    capsys.readouterr()
    header = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["header"]
    assert header["suite_version"] == printed.split()[1]
    assert header["goldens_digest"] == current()[0]  # the pins Unreleased holds, when it holds some
