"""One operator variant's verdict, in its own process:
``python -m conformance.selftest.variants.operator_worker [--sanitize NAME] TREE SUITE``.

Contract: builds the variant's tree of runners/c through the build layer (with the sanitizer's
flags when one is named), runs the non-slow scenarios cheapest first as the matrix judges a
cell (``compare_scenario``: the first divergence is diagnosed), and, only when every scene
passes, every primitive vector family.  It prints one JSON line: ``scene`` (the scenario, the
step, the red cell's headline and the clauses it cites), ``vectors`` (the family and case),
``survived``, ``build-failed``, or ``no-verdict`` (a scenario without a usable golden: the suite,
not the variant, is at fault).  A crash of the variant kills this process, which the
parent reports as a kill by crash.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ...data import vectors
from ...data.goldens import OK as GOLDEN_OK, golden_status
from ...data.suite import Suite
from ...judge.cell_text import cell_lines
from ...judge.matrix import DIVERGED, ERROR, compare_scenario, run_families
from ...runners.base import RunnerError
from ...runners.build.layer import DETERMINISM_FLAGS, BuildFailed, system_cc
from ...runners.cffi_runner import CffiRunner, CVariant
from ...runners.reference import ReferenceRunner
from ...runners.build.sanitizer import compile_flags, drop_preload
from ..controls.catalogue import by_cost

SCENE, VECTORS, SURVIVED, BUILD_FAILED, NO_VERDICT = "scene", "vectors", "survived", "build-failed", "no-verdict"


def _runner(tree: Path, sanitizer: str | None) -> CffiRunner:
    flags = DETERMINISM_FLAGS + ("-O2",) + (compile_flags(sanitizer) if sanitizer else ())
    return CffiRunner(CVariant(f"operator{'-' + sanitizer if sanitizer else ''}", system_cc(), flags, tree))


def verdict(tree: Path, root: Path, sanitizer: str | None = None) -> dict:
    """The variant's verdict: scenes first (a kill there is what a port that only runs scenes
    would see), then the vectors."""
    runner = _runner(tree, sanitizer)
    try:
        runner.info()
    except (RunnerError, BuildFailed) as err:
        return {"status": BUILD_FAILED, "detail": str(err)[-300:]}
    suite = Suite(root)
    reference = ReferenceRunner()
    scenarios = by_cost(suite.files(False))
    unusable = [s.id for s in scenarios if golden_status(suite.goldens_dir, s).kind != GOLDEN_OK]
    if unusable:  # a suite without its goldens judges nothing: never a kill
        return {"status": NO_VERDICT, "detail": f"no usable golden for {', '.join(unusable)}"}
    for scenario in scenarios:
        cell = compare_scenario(scenario, runner, suite.goldens_dir, reference, None)
        if cell.status in (DIVERGED, ERROR):
            return {"status": SCENE, "killed_by": f"scenario:{scenario.id}", "step": cell.step,
                    "headline": cell_lines(cell)[0], "clauses": cell.clauses(), "cell": cell.status}
    for run in run_families(runner, vectors.load_all(suite.goldens_dir / "vectors")):
        if run.error is not None:
            return {"status": VECTORS, "killed_by": f"vector:{run.name}", "detail": run.error.reason}
        if run.bad:
            return {"status": VECTORS, "killed_by": f"vector:{run.name}#{run.bad[0]}", "detail": f"{len(run.bad)} cases"}
    return {"status": SURVIVED}


def main() -> int:
    """``[--sanitize NAME] TREE SUITE`` (as ``mutate.worker_verdict`` starts it): one JSON line."""
    args = sys.argv[1:]
    sanitizer = None
    if args[0] == "--sanitize":
        sanitizer, args = args[1], args[2:]
        drop_preload()  # the runtime stays loaded here; the compiler this process starts runs without it
    tree, root = Path(args[0]), Path(args[1])
    print(json.dumps(verdict(tree, root, sanitizer)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
