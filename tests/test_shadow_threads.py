"""The traced shadow is loaded once per process even when the matrix's column threads ask for it
at the same moment (two loads at once deleted each other's half-built modules: the matrix died
with a ModuleNotFoundError on a control's vectors row)."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

SCRIPT = """
import threading
from conformance.data import shadow
barrier = threading.Barrier(4)
errors, loaded = [], []
def ask():
    barrier.wait()
    try:
        vectors, _ = shadow.traced()
        loaded.append((id(vectors), id(shadow.traced_module("solver.neighbors"))))
    except Exception as e:
        errors.append(repr(e))
threads = [threading.Thread(target=ask) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(len(errors), len(set(loaded)), len(loaded))
print("\\n".join(errors))
"""


def test_four_threads_asking_for_the_shadow_at_once_get_one_shadow() -> None:
    for _ in range(3):  # a fresh process each time: the first load is the race
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        errors, distinct, count = done.stdout.split("\n", 1)[0].split()
        assert (errors, distinct, count) == ("0", "1", "4"), done.stdout
