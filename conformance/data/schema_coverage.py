"""Schema coverage: every field of the expanded scene at each of its boundary values, in data.

Contract: ``boundaries()`` derives from ``conformance/schemas/scene.schema.json`` (the scene the
port protocol sends) the boundary values of every field:

* a number or an integer: its ``minimum`` (called ``zero`` when it is 0), its ``maximum``, and
  an ``exclusiveMinimum`` (``above-minimum``: there is no least value, so only an argument
  covers it);
* an ``[x, y]`` pair (a position, a velocity): ``zero`` and ``nonzero``;
* a list: its fewest items (``empty`` for 0, ``single`` for 1), ``single`` too when fewer are
  allowed, ``most`` (its ``maxItems``), or ``many`` (at least the count the committed file
  names for it) when it has no ``maxItems``.

``holders(boundary, scenarios)`` is the ids of the scenarios whose expanded scene holds it: a
field of every agent is held when one agent has the value; the seed only in scenes whose
magnitude is positive (elsewhere it draws nothing).  ``table(scenarios, committed)`` joins the
boundaries, their holders among the non-slow scenarios and the committed file
(``docs/census/schema-coverage.json``, schema ``schema-coverage``): a boundary is COVERED when a
scenario holds it, ARGUED when the file says why none needs to, OPEN otherwise.
``check_committed(path, scenarios)`` lists every problem of the committed file: a boundary it
lacks or one the schema no longer has, a list that is not the live one, an OPEN boundary.

``schema_differences()`` compares, field by field, the constraints that the scenario schema
and the scene schema put on the fields both describe (``SAME_FIELDS``): the two must accept
exactly the same values (docs/scenarios.md, "Two schemas, one set of values").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..contract import schema_files
from ..contract.scenario import Scenario
from ..jsonfile import write_json_atomic

COVERAGE_FORMAT = "orca-schema-coverage/1"
COVERED, ARGUED, OPEN = "COVERED", "ARGUED", "OPEN"
CONSTRAINT_KEYS = ("type", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minItems", "maxItems")

SAME_FIELDS: tuple[tuple[str, str], ...] = (
    ("dt", "dt"), ("steps", "steps"),
    ("perturbation.seed", "perturbation.seed"), ("perturbation.magnitude", "perturbation.magnitude"),
    *((f"agent_defaults.{name}", f"agents[].{name}") for name in (
        "radius", "max_speed", "neighbor_distance", "max_neighbors", "time_horizon", "time_horizon_obst",
        "goal_radius")),
    *((f"agents[].agent.{name}", f"agents[].{name}") for name in ("position", "velocity", "waypoints")),
)
"""(scenario schema field, scene schema field) pairs that must carry the same constraints (a
group's ``params`` is the same ``$defs/params`` as ``agent_defaults``)."""

UNPAIRED = {
    "agents": "a scenario lists groups (agent, circle, block) that the loader expands; it bounds the "
              "expanded agents (at most 20000) in code, as the scene has them",
    "segments": "a scenario lists obstacles (segment, polyline, polygon) that the loader expands; it bounds "
                "the expanded segments (at most 10000) in code",
}
"""Scene fields with no scenario-schema twin, and why."""


@dataclass(frozen=True)
class Boundary:
    field: str
    name: str
    kind: str  # "number", "pair" or "list"
    value: float | int | None  # None: a list's "many", whose count the committed file sets

    @property
    def key(self) -> tuple[str, str]:
        return (self.field, self.name)


def scene_schema() -> dict:
    return schema_files.validator("scene").schema


def scenario_schema() -> dict:
    return schema_files.validator("scenario").schema


def resolve(node: dict, root: dict) -> dict:
    """``node`` with a local ``$ref`` replaced by its target (the node's own keys win)."""
    while "$ref" in node:
        target: dict = root
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def schema_at(root: dict, field: str) -> dict:
    """The resolved schema of ``field`` (``agents[].radius``: the items of ``agents``)."""
    node = root
    for part in field.split("."):
        node = resolve(node, root)["properties"][part.removesuffix("[]")]
        if part.endswith("[]"):
            node = resolve(node, root)["items"]
    return resolve(node, root)


def boundaries(schema: dict | None = None) -> list[Boundary]:
    """Every boundary of every field of the scene schema, in the schema's order."""
    root = schema if schema is not None else scene_schema()
    found: list[Boundary] = []
    for name, node in root["properties"].items():
        _field_boundaries(name, node, root, found)
    return found


def _is_pair(node: dict, root: dict) -> bool:
    items = resolve(node.get("items", {}), root)
    return node.get("minItems") == node.get("maxItems") == 2 and items.get("type") == "number"


def _field_boundaries(field: str, node: dict, root: dict, found: list[Boundary]) -> None:
    node = resolve(node, root)
    kind = node.get("type")
    if kind == "object":
        for name, sub in node["properties"].items():
            _field_boundaries(f"{field}.{name}", sub, root, found)
    elif kind == "array" and _is_pair(node, root):
        found += [Boundary(field, "zero", "pair", 0), Boundary(field, "nonzero", "pair", None)]
    elif kind == "array":
        fewest = node.get("minItems", 0)
        found.append(Boundary(field, {0: "empty", 1: "single"}.get(fewest, "fewest"), "list", fewest))
        if fewest == 0:
            found.append(Boundary(field, "single", "list", 1))
        found.append(Boundary(field, "most", "list", node["maxItems"]) if "maxItems" in node
                     else Boundary(field, "many", "list", None))
        items = resolve(node.get("items", {}), root)
        if items.get("type") == "object":
            for name, sub in items["properties"].items():
                _field_boundaries(f"{field}[].{name}", sub, root, found)
    elif kind in ("number", "integer"):
        if "minimum" in node:
            found.append(Boundary(field, "zero" if node["minimum"] == 0 else "minimum", "number", node["minimum"]))
        if "exclusiveMinimum" in node:
            found.append(Boundary(field, "above-minimum", "number", node["exclusiveMinimum"]))
        if "maximum" in node:
            found.append(Boundary(field, "maximum", "number", node["maximum"]))


def field_values(scene: dict, field: str) -> list:
    """Every value of ``field`` in an expanded scene (one per agent for ``agents[].*``)."""
    nodes = [scene]
    for part in field.split("."):
        nodes = [n[part.removesuffix("[]")] for n in nodes]
        if part.endswith("[]"):
            nodes = [item for n in nodes for item in n]
    return nodes


def holds(boundary: Boundary, scene: dict, many: int | None = None) -> bool:
    """Whether an expanded scene (its JSON) holds ``boundary``."""
    if boundary.field == "perturbation.seed" and not scene["perturbation"]["magnitude"] > 0:
        return False
    values = field_values(scene, boundary.field)
    if boundary.kind == "pair":
        zero = [v[0] == 0 and v[1] == 0 for v in values]
        return any(zero) if boundary.name == "zero" else not all(zero)
    if boundary.kind == "list":
        counts = [len(v) for v in values]
        return any(c >= many for c in counts) if boundary.name == "many" and many else \
            any(c == boundary.value for c in counts)
    if boundary.name in ("zero", "minimum", "maximum"):
        return any(v == boundary.value and not isinstance(v, bool) for v in values)
    return False  # above-minimum: no least value


def holders(boundary: Boundary, scenarios: Iterable[Scenario], many: int | None = None) -> list[str]:
    return [s.id for s in scenarios if not s.slow and holds(boundary, s.scene.to_json(), many)]


def table(scenarios: Iterable[Scenario], committed: dict) -> list[dict]:
    """One entry per boundary: field, boundary, value, scenarios, argued, status."""
    scenarios = list(scenarios)
    argued = {(e["field"], e["boundary"]): e.get("argued", "") for e in committed.get("boundaries", [])}
    many = committed.get("many", {})
    rows = []
    for b in boundaries():
        count = many.get(b.field) if b.name == "many" else None
        held = holders(b, scenarios, count)
        why = argued.get(b.key, "")
        rows.append({"field": b.field, "boundary": b.name, "value": count if b.name == "many" else b.value,
                     "scenarios": held, "argued": why,
                     "status": COVERED if held else ARGUED if why else OPEN})
    return rows


def coverage_path(root: Path) -> Path:
    return root / "docs" / "census" / "schema-coverage.json"


def read_committed(path: Path) -> dict:
    return schema_files.read_valid(path, "schema-coverage")  # type: ignore[return-value]


def check_committed(path: Path, scenarios: Iterable[Scenario]) -> list[str]:
    """Every problem of the committed file against the schema and the scenarios."""
    committed = read_committed(path)
    live = table(scenarios, committed)
    problems = [f"{b.field}: 'many' needs a count in the file's \"many\"" for b in boundaries()
                if b.name == "many" and b.field not in committed.get("many", {})]
    known = {(r["field"], r["boundary"]) for r in live}
    problems += [f"{e['field']} {e['boundary']}: no such boundary of scene.schema.json (remove it)"
                 for e in committed["boundaries"] if (e["field"], e["boundary"]) not in known]
    stored = {(e["field"], e["boundary"]): e for e in committed["boundaries"]}
    for row in live:
        key = (row["field"], row["boundary"])
        if row["status"] == OPEN:
            problems.append(f"{row['field']} {row['boundary']} ({row['value']!r}): no scenario holds it "
                            "and the file gives no argument")
        if stored.get(key) != row:
            problems.append(f"{row['field']} {row['boundary']}: the committed entry is not the live one "
                            "(python -m conformance.data.schema_coverage --write)")
    return problems


def write_committed(path: Path, scenarios: Iterable[Scenario]) -> list[dict]:
    """Rewrite the file from the live table, keeping its arguments and counts."""
    committed = read_committed(path) if path.exists() else {"many": {}, "boundaries": []}
    rows = table(scenarios, committed)
    write_json_atomic(path, {"format": COVERAGE_FORMAT, "many": committed.get("many", {}), "boundaries": rows})
    return rows


def constraints(node: dict, root: dict) -> dict:
    """The value constraints of a schema node, its items' included."""
    node = resolve(node, root)
    found = {k: node[k] for k in CONSTRAINT_KEYS if k in node}
    if "items" in node:
        found["items"] = constraints(node["items"], root)
    return found


def schema_differences() -> list[str]:
    """One line per constraint that the two schemas put differently on the same field."""
    scenario, scene = scenario_schema(), scene_schema()
    lines = []
    for ours, theirs in SAME_FIELDS:
        a, b = constraints(schema_at(scenario, ours), scenario), constraints(schema_at(scene, theirs), scene)
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                lines.append(f"{ours} / {theirs}: {key}: scenario {a.get(key)!r}, scene {b.get(key)!r}")
    return lines


def main(argv: list[str]) -> int:
    """``--write`` rewrites the committed file; otherwise check it (exit 1 on a problem)."""
    from .suite import Suite

    suite = Suite.locate()
    scenarios = suite.files(True)
    path = coverage_path(suite.root)
    if "--write" in argv:
        rows = write_committed(path, scenarios)
        print(f"wrote {path}: {len(rows)} boundaries")
    problems = check_committed(path, scenarios) + schema_differences()
    for line in problems:
        print(f"FAIL {line}")
    print(f"schema coverage: {'OK' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
