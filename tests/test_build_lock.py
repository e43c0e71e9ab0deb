"""The build layer's lock: threads (the matrix's columns) and processes asking for the same
artifact at once get one compile, and every one of them the finished file."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from conformance.runners.build.layer import DETERMINISM_FLAGS, build, system_cc
from conformance.runners.cli_port import cli_spec


def test_concurrent_builds_of_one_spec_compile_once(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    spec = cli_spec("lock-test", system_cc(), DETERMINISM_FLAGS + ("-O0",))
    with ThreadPoolExecutor(max_workers=4) as pool:
        artifacts = list(pool.map(lambda _: build(spec), range(4)))
    assert sum(not a.cached for a in artifacts) == 1  # one compiled, three waited and reused it
    assert len({a.path for a in artifacts}) == 1 and artifacts[0].path.stat().st_size > 0
    assert not list((tmp_path / "cache").glob("*/.build-*"))  # no scratch folder left behind
