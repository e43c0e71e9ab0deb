"""Fuzzing the scenario loader: whatever the bytes, a Scenario or one clean InputError.

Four generators: raw bytes; YAML-ish token soup (brackets, anchors, tags, merge keys,
indentation, control characters, odd numbers); structural mutations of the real scenario
files (a key path replaced, removed or added, then dumped back to YAML); and textual
mutations of the real files (spans deleted, inserted, duplicated, numbers replaced).  Every
outcome must be a loaded scenario whose scene is JSON-ready and whose expect: can be checked
against any figures, or an ``InputError`` that names the file, has a key path, and prints as
one printable line.  The runs are derandomized and bounded (a few seconds each), so this is a
deterministic regression test; ``ORCA_FUZZ_EXAMPLES=N`` multiplies the budget for a deeper
local hunt, and ``ORCA_FUZZ_RANDOM=1`` makes it a fresh random one.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.errors import InputError
from conformance.contract.expectations import check_expectations
from conformance.contract.scenario import Scenario, load_scenario
from conftest import ROOT

SOURCES = sorted((ROOT / "scenarios").rglob("*.yaml"))
TEXTS = [p.read_text() for p in SOURCES]
SCALE = max(1, int(os.environ.get("ORCA_FUZZ_EXAMPLES", "1")))
RANDOM = os.environ.get("ORCA_FUZZ_RANDOM") == "1"  # a fresh random hunt instead of the fixed runs
_DIR = Path(tempfile.mkdtemp(prefix="orca-loader-fuzz-"))
atexit.register(shutil.rmtree, _DIR, True)
TARGET = _DIR / "scenarios" / "fuzz" / "case.yaml"
TARGET.parent.mkdir(parents=True)


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, derandomize=not RANDOM, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def assert_clean_outcome(data: bytes) -> str:
    """Load ``data`` as a scenario file; a Scenario or a one-line InputError, nothing else."""
    TARGET.write_bytes(data)
    try:
        scenario = load_scenario(TARGET)
    except InputError as err:
        line = str(err)
        assert err.file == str(TARGET), line
        assert isinstance(err.key_path, str) and err.reason, line
        assert line.isprintable() and len(line) < 1200, repr(line)
        return "error"
    assert isinstance(scenario, Scenario)
    scenario.scene.canonical_json()  # finite doubles only, or this raises
    assert isinstance(check_expectations(scenario, {}), list)
    return "loaded"


# -- raw bytes ---------------------------------------------------------------------------

@fuzz_settings(150)
@given(st.binary(max_size=400))
def test_bytes(data: bytes) -> None:
    assert_clean_outcome(data)


@fuzz_settings(100)
@given(st.sampled_from(range(len(TEXTS))), st.integers(0, 10_000), st.binary(min_size=1, max_size=8))
def test_bytes_spliced_into_real_files(which: int, at: int, payload: bytes) -> None:
    data = TEXTS[which].encode()
    at %= len(data) + 1
    assert_clean_outcome(data[:at] + payload + data[at:])


# -- YAML-ish token soup -------------------------------------------------------------------

TOKENS = ["[", "]", "{", "}", ",", ":", ": ", "- ", "\n", "\n  ", "\n    ", "  ", "\t", "&a ", "*a", "<<: ",
          "!!python/object/apply:os.system ", "!!binary ", "!custom ", "? ", "---\n", "...\n", "#", "'", '"',
          "|\n", ">\n", "%YAML 1.1\n", "\x00", "\x07", "\x1b", "\x85", "\u2028", "\ufeff", "\ud7ff",
          "id", "agents", "agent", "circle", "block", "via", "params", "expect", "obstacles", "polygon",
          "steps", "dt", "count", "radius", "position", "waypoints", "face_to_face", "max_overlap",
          "0", "1", "-1", "0.1", "1e308", "1e400", "-0.0", ".nan", ".inf", "0x1F", "0o17", "0b101", "1_000",
          "190:20:30", "1" + "0" * 30, "2020-01-01", "yes", "~", "null", "true", "'\\n'", '"\\x07"']


@fuzz_settings(150)
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_token_soup(tokens: list[str]) -> None:
    assert_clean_outcome("".join(tokens).encode("utf-8", "surrogatepass"))


@fuzz_settings(30)
@given(st.sampled_from(["[", "{a: ", "- ", "a:\n" + " " * 0]), st.integers(1, 5000))
def test_deep_nesting(opener: str, depth: int) -> None:
    if opener.startswith("a:"):
        text = "".join("  " * i + "a:\n" for i in range(depth))
    elif opener == "- ":
        text = "".join("  " * i + "- \n" for i in range(min(depth, 500)))
    else:
        text = opener * depth
    assert_clean_outcome(text.encode())


# -- structural mutations of the real files ------------------------------------------------

class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: object) -> bool:
        return True


SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-2 ** 70, 2 ** 70), st.integers(-3, 30), st.integers(2 ** 1023, 2 ** 1100),
    st.floats(allow_nan=True, allow_infinity=True), st.floats(-3e6, 3e6),
    st.text(max_size=12), st.sampled_from(["", "orca/x", "a\nb", "\x07", "\u2028"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(["agent", "circle", "block", "params", "position", "waypoints",
                                               "count", "radius", "via", "x"]), st.text(max_size=6)),
                    inner, max_size=4)), max_leaves=12)
PATH_STEPS = st.lists(st.integers(0, 40), min_size=1, max_size=6)


def _mutate(data: object, steps: list[int], action: int, value: object) -> object:
    """Walk ``steps`` (child indices mod length) into data; replace, delete or add there."""
    parent = data
    for k, step in enumerate(steps):
        children = list(parent.keys()) if isinstance(parent, dict) else (
            list(range(len(parent))) if isinstance(parent, list) else [])
        if not children:
            break
        key = children[step % len(children)]
        last = k == len(steps) - 1 or not isinstance(parent[key], (dict, list)) or not parent[key]
        if last:
            if action == 0:
                parent[key] = value
            elif action == 1:
                del parent[key]
            elif isinstance(parent, dict):
                parent[f"k{step}"] = value
            else:
                parent.insert(step % (len(parent) + 1), value)
            break
        parent = parent[key]
    return data


@fuzz_settings(150)
@given(st.sampled_from(range(len(TEXTS))), st.lists(st.tuples(PATH_STEPS, st.integers(0, 2), VALUES),
                                                     min_size=1, max_size=3))
def test_structural_mutations_of_real_files(which: int, mutations: list) -> None:
    data = yaml.safe_load(TEXTS[which])
    for steps, action, value in mutations:
        data = _mutate(data, steps, action, value)
    text = yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False)
    assert_clean_outcome(text.encode("utf-8", "surrogatepass"))


# -- textual mutations of the real files ---------------------------------------------------

EDITS = st.tuples(st.integers(0, 3), st.integers(0, 10_000), st.integers(0, 40), st.sampled_from(TOKENS))


def _edit(text: str, kind: int, at: int, length: int, token: str) -> str:
    at %= len(text) + 1
    if kind == 0:  # delete a span
        return text[:at] + text[at + length:]
    if kind == 1:  # insert a token
        return text[:at] + token + text[at:]
    if kind == 2:  # duplicate a span (duplicate keys, repeated lines)
        return text[:at] + text[at:at + length] + text[at:]
    lines = text.split("\n")  # replace a line's value by a token
    i = at % len(lines)
    head = lines[i].split(":", 1)[0]
    lines[i] = head + ": " + token
    return "\n".join(lines)


@fuzz_settings(200)
@given(st.sampled_from(range(len(TEXTS))), st.lists(EDITS, min_size=1, max_size=4))
def test_textual_mutations_of_real_files(which: int, edits: list) -> None:
    text = TEXTS[which]
    for edit in edits:
        text = _edit(text, *edit)
    assert_clean_outcome(text.encode("utf-8", "surrogatepass"))


def test_the_real_files_load() -> None:
    """The fuzzers start from valid files (so the mutations are near misses, not noise)."""
    TARGET.write_text(TEXTS[0])
    assert all(assert_clean_outcome(t.encode()) == "loaded" for t in TEXTS)
