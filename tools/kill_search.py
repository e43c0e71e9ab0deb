"""Search fresh primitive inputs for ones that tell a surviving mutant from the C port.

    python tools/kill_search.py 'obstacle.c:189:*' --family support_distance --seeds 1-400

For each matching mutant, builds it, then runs the family's cases of seeds A..B (the same
generators as the stored vectors, edge cases included) through the mutant and through the
unmutated C port (which the vectors hold to the reference bit for bit) and prints the first
cases on which they differ, as raw argument lists to paste into conformance/data/vector_edges.py.
No reference evaluation is needed, so thousands of seeds take seconds.  A mutant with no
differing case over many seeds is a candidate for the reviewed equivalent list (whose
evidence ``orca-conformance mutate --evidence`` then gathers).
"""

from __future__ import annotations

import argparse
import fnmatch
import subprocess
import sys


from conformance.data import vectors
from conformance.selftest.variants.mutate import generate_mutants
from conformance.selftest.variants.tree import variant_build, variant_tree
from conformance.runners.cffi_runner import CffiRunner, c_variants


def _encoded(family: vectors.Family, raw: list) -> list:
    return [vectors.encode_value(c, v) for c, v in zip(family.args, raw)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="+", help="mutant id globs")
    parser.add_argument("--family", action="append", help="primitive families (default: all)")
    parser.add_argument("--seeds", default="1-200", help="seed range A-B (default 1-200; 0 is the stored set)")
    parser.add_argument("--show", type=int, default=3, help="differing cases to print per mutant")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    families = [vectors.FAMILY_BY_NAME[f] for f in args.family] if args.family else list(vectors.FAMILIES)
    mutants = [m for m in generate_mutants() if any(fnmatch.fnmatchcase(m.id, p) for p in args.ids)]
    if not mutants:
        print("no mutant matches", file=sys.stderr)
        return 2
    if len(mutants) > 1:
        # one process per mutant: a mutant that crashes must not end the search
        for mutant in mutants:
            cmd = [sys.executable, __file__, mutant.id, "--seeds", args.seeds, "--show", str(args.show)]
            cmd += [f"--family={f}" for f in args.family or []]
            done = subprocess.run(cmd, capture_output=True, text=True)
            print(done.stdout, end="" if done.stdout.endswith("\n") or not done.stdout else "\n", flush=True)
            if done.returncode != 0:
                print(f"CRASHES  {mutant.id}: status {done.returncode}", flush=True)
        return 0
    port = CffiRunner(c_variants()["c"])
    raw_cases = {f.name: [raw for seed in range(first, last + 1) for raw in vectors.raw_cases(f.name, seed or None)]
                 for f in families}
    expected = {f.name: port.vectors(f.name, [_encoded(f, raw) for raw in raw_cases[f.name]]) for f in families}
    for mutant in mutants:
        runner = CffiRunner(variant_build(variant_tree(mutant)))
        found = 0
        compared = 0
        shown: list[str] = []
        for family in families:
            cases = raw_cases[family.name]
            got = runner.vectors(family.name, [_encoded(family, raw) for raw in cases])
            compared += len(cases)
            for raw, want, have in zip(cases, expected[family.name], got):
                if want != have:
                    found += 1
                    if found <= args.show:
                        shown.append(f"  {family.name}: {raw!r}")
        print(f"{'DIFFERS ' if found else 'same    '} {mutant.id}: {found} of {compared} cases differ")
        for line in shown:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
