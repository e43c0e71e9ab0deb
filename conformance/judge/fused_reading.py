"""Fusion at one site as a candidate reading: the one multiply-add a port fused.

A port that calls fma at one place (Rust ``mul_add``, C++ ``std::fma``, C# ``Math.FusedMultiplyAdd``)
or whose compiler contracts one expression differs from the reference by an ulp where that
value is computed, and by whatever the ulp changes after it.  Its primitives may pass every
other case; its red cell would otherwise say "the constraint list differs (suspect what is fed
to them)" or "the linear program or its fallback".

Contract: ``fused_site(scene, state, agent, port, runner=None, budget=None)`` replays the divergent agent's
agent_step from the reference's state ``state`` with each site of ``data.fused_sites.FUSED_SITES``
fused alone, in order, and returns a frozen ``FusedReading``: the first site whose fused
evaluation gives the port's agent_step BIT FOR BIT (every constraint, the hard count and the
new velocity), with how many other sites do too; None when none does or the ``Budget`` of
replays runs out (a bound on work, never on time: a cell's words do not depend on the machine's load).  The diagnosis asks it only where no decision read
otherwise and no stock reading explains the port (citation.py's flip search, causes.py's
readings come first), so that a fused site never takes the name of a misread decision.
With ``runner``, a site must also give the port's answer to every committed vector case the port
fails, of each family that runs on the solver (``_same_primitive``), and the port's agent_step
of every OTHER agent that differs from the reference's, in that state and the reference's next
``LATER_STATES`` (``_uncontradicted``): a fused ulp at a boundary can take the branch a
misreading takes, and a build that fuses everywhere differs where one site does not reach.
``FusedReading.cite()`` is its Citation: ``arith.binary64`` (never fused) first, then the clause
of the rule the site computes for (the decision of its function that holds it, else the
function's first decision, data/site_clauses.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .. import shipped
from ..contract.clauses import Citation
from ..contract.float_bits import bits
from ..contract.scenario import Scene
from ..data.fused_sites import FUSED_SITES, FusedSite, family_reference, solver
from ..data.site_clauses import SITE_CLAUSES
from ..data import vectors
from ..runners.base import Runner, RunnerError, StateDump
from .provided import provides
from .shared_causes import MISSING, SharedCauses
from .step_comparison import StepResult, _simulator, agent_step_args, step_result

FIX = "compute it as the text writes it: no mul_add, std::fma or Math.FusedMultiplyAdd there; -ffp-contract=off"
"""The one change that removes a fused site, whatever the language."""
NOT_IN_STEP = frozenset({"Simulator.apply", "for_boundary", "signed_distance"})
"""Functions agent_step never runs (the position update, ForBoundary, the plain signed distance)."""
LATER_STATES = 4
"""The reference's states after the divergent one whose differing agents must agree with the site."""
REPLAYS = 3000
"""Replays of one search by default: an agent_step or a vector case evaluated with a site fused
(about 2 ms each; the step's own sites take about 110)."""


@dataclass
class Budget:
    """The replays a search may still make."""

    left: int = REPLAYS

    def take(self, count: int = 1) -> bool:
        """Spend ``count`` replays: False (and nothing left) when fewer remain."""
        if self.left < count:
            self.left = 0
            return False
        self.left -= count
        return True


@dataclass(frozen=True)
class FusedReading:
    """The site whose fused evaluation reproduces the port's agent_step, and how many others do."""

    site: FusedSite
    others: int = 0
    shared_from: str = ""
    """The cell ("row@step") whose look at the other agents this reading took, when not its own."""

    def words(self) -> str:
        """"a fused multiply-add at `pd * pd + radius * radius` (`pd * pd` fused) in line_interval"."""
        return f"{self.site.reading()} in {self.site.function}"

    def cite(self) -> Citation:
        """arith.binary64, then the clause of the rule the site computes for."""
        own = f"{self.site.module}.{self.site.function}: "
        holding = [c for s, c in SITE_CLAUSES.items() if s.startswith(own) and self.site.text in s]
        nearby = [c for s, c in SITE_CLAUSES.items() if s.startswith(own)]
        rule = (holding or nearby or [()])[0]
        return Citation("arith.binary64", list(rule[:2]),
                        reading=f"{self.words()} reproduces the port's result; fix: {FIX}")


def _key(result: StepResult) -> tuple:
    return (tuple(tuple(bits(v) for v in line) for line in result.lines), result.hard, bits(result.vx),
            bits(result.vy))


def _step(site: FusedSite, scene: Scene, state: StateDump, agent: int) -> StepResult:
    """The agent's agent_step from ``state`` with ``site`` fused."""
    sim = _simulator(scene, state, solver(site)["Simulator"])
    grid = sim.grid()
    lines, hard = sim.constraints(agent, scene.dt, grid)
    vx, vy = sim.new_velocity(agent, scene.dt, grid)
    return StepResult(tuple(tuple(line) for line in lines), hard, vx, vy)


def _reproduces(site: FusedSite, scene: Scene, state: StateDump, agent: int, want: tuple) -> bool:
    try:
        return _key(_step(site, scene, state, agent)) == want
    except (ArithmeticError, ValueError, IndexError):
        return False


def fused_site(scene: Scene, state: StateDump, agent: int, port: StepResult, runner: Runner | None = None,
               budget: Budget | None = None, shared: SharedCauses | None = None) -> FusedReading | None:
    """The first site whose fused evaluation gives ``port`` bit for bit and that no other agent
    contradicts (see the module).  With ``shared`` (one column's), the look at the port's vectors
    and at the other agents runs once per set of candidate sites: a later cell whose candidates
    are the same takes the first cell's outcome, and its reading says which cell searched
    (``shared_from``)."""
    budget = Budget() if budget is None else budget
    want = _key(port)
    found = [site for site in FUSED_SITES if site.function not in NOT_IN_STEP and budget.take()
             and _reproduces(site, scene, state, agent, want)]
    owner = ""
    if runner is not None and found:
        signature = tuple(found)
        owner, kept = shared.recall("fused", signature) if shared is not None else ("", MISSING)
        if kept is MISSING:
            found = _same_primitive(found, runner, budget)
            found = _uncontradicted(found, scene, state, agent, runner, budget) if found else found
            if shared is not None:
                shared.keep("fused", signature, tuple(found))
        else:
            found = list(kept)  # type: ignore[arg-type]
    return FusedReading(found[0], len(found) - 1, owner) if found else None


@lru_cache(maxsize=1)
def _stored() -> dict[str, list[dict]]:
    """The committed vector cases of the families a fused site can change."""
    return vectors.load_all(shipped.root() / "goldens" / "vectors")


BAD_CASES = 64
"""The port's failing cases of one family that a site must reproduce, at most (the first ones)."""


def _same_primitive(sites: list[FusedSite], runner: Runner, budget: Budget) -> list[FusedSite]:
    """The sites whose fused reference gives the port's answer to each committed vector case the
    port fails (a misreading, or another toolchain slip, fails cases one fused site does not
    reach), for every family that runs on the solver; the sites as they were for a family the port
    cannot answer."""
    failing: list[tuple[object, list, list]] = []  # (family, decoded args, the port's encoded result)
    for name, cases in _stored().items():
        family = vectors.FAMILY_BY_NAME.get(name)
        if family is None or family_reference(sites[0], family) is None or not provides(runner, name):
            continue
        try:
            results = runner.vectors(name, [case["args"] for case in cases])
        except RunnerError:
            continue
        if not isinstance(results, list) or len(results) != len(cases):
            continue
        for index in vectors.compare(cases, results)[:BAD_CASES]:
            failing.append((family, [vectors.decode_value(c, v) for c, v in zip(family.args, cases[index]["args"])],
                            results[index]))
    kept = []
    for site in sites:
        if not budget.take(len(failing)):
            break
        if all(_same_case(family_reference(site, family), family, args, got) for family, args, got in failing):
            kept.append(site)
    return kept


def _same_case(reference, family, args: list, got: list) -> bool:
    """Whether ``reference`` (a fused site's) gives the port's encoded result ``got``."""
    try:
        return [vectors.encode_value(c, v) for c, v in zip(family.result, reference(*args))] == got
    except (ArithmeticError, ValueError, IndexError, TypeError):
        return False


def _uncontradicted(sites: list[FusedSite], scene: Scene, state: StateDump, agent: int, runner: Runner,
                    budget: Budget) -> list[FusedSite]:
    """The sites that also give the port's agent_step of every other agent whose agent_step
    differs from the reference's, in ``state`` and the reference's next ``LATER_STATES`` states
    (while the budget lasts): a boundary state can make one fused site's ulp take the branch a
    misreading takes (a leg skipped at a touching wall), and a whole-toolchain slip (every site
    fused, reciprocals) differs where one site does not reach; the other agents tell them apart."""
    from ..runners.reference import ReferenceRunner
    from .first_decision import port_steps
    reference = ReferenceRunner()
    for t in range(LATER_STATES + 1):
        if not sites or not budget.left or state.step + t > scene.steps:
            break
        try:
            now = state if t == 0 else reference.dump(scene, state.step + t)
            answers = port_steps(runner, scene, now, range(len(scene.agents)))
        except (RunnerError, ArithmeticError, ValueError):
            break
        family = vectors.FAMILY_BY_NAME["agent_step"]
        for j, answer in enumerate(answers):
            if (t == 0 and j == agent) or not budget.take(len(sites)):
                continue
            want = _key(answer)
            if _key(step_result(family.reference(*agent_step_args(scene, now, j)))) == want:
                continue
            sites = [site for site in sites if _reproduces(site, scene, now, j, want)]
    return sites
