"""The normative text is named exactly: `spec FILE` tells the pinned version from any other."""

from __future__ import annotations

import hashlib

from conformance.contract import spec_text
from conformance.cli import main
from conftest import ROOT

TEXT = "ORCA solver · onepath docs\n\nline one\nline two".encode()


def test_the_pinned_digest_is_a_sha256_and_the_readme_names_it() -> None:
    assert len(spec_text.SHA256) == 64 and int(spec_text.SHA256, 16) >= 0
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert spec_text.SHA256 in readme and spec_text.TITLE in readme and "orca-conformance spec" in readme


def test_an_exact_copy_passes_and_a_changed_one_fails(tmp_path, monkeypatch, capsys) -> None:
    copy = tmp_path / "orca-spec.txt"
    copy.write_bytes(TEXT)
    monkeypatch.setattr(spec_text, "SHA256", hashlib.sha256(TEXT).hexdigest())
    monkeypatch.setattr(spec_text, "NORMALISED_SHA256", hashlib.sha256(spec_text.normalise(TEXT)).hexdigest())
    assert main(["spec", str(copy)]) == 0
    assert "exact version" in capsys.readouterr().out
    copy.write_bytes(TEXT.replace(b"\n", b"\r\n") + b"  \r\n")
    assert main(["spec", str(copy)]) == 1
    assert "same text, saved with other line endings" in capsys.readouterr().out
    copy.write_bytes(TEXT.replace(b"two", b"2"))
    assert main(["spec", str(copy)]) == 1
    assert "NOT the version" in capsys.readouterr().out


def test_an_unreadable_copy_is_bad_input(tmp_path, capsys) -> None:
    assert main(["spec", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
