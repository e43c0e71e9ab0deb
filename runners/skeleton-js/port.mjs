#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// ORCA conformance: a skeleton port in JavaScript, to start a port from.
//
//   orca-conformance matrix --runner 'exec:node port.mjs'      (run from this folder)
//
// What is real here: the whole protocol (docs/protocol.md: hello, run, dump, vectors, bye, error
// replies), the hex encoding of doubles, the scene reader, the state hash and the non-finite
// check (docs/porting.md section 3), the SplitMix64 stream and U(n) (section 2), the step loop
// and the position update. What is not: every solver primitive and the preferred velocity.
// Each is a function below that calls todo(); it answers the request with an error reply, so
// the suite shows the cell as ERROR with the family's name instead of a wrong hash. The hello
// declares the families written (PROVIDES, below): the suite asks only those, and its vectors
// row is NOT PROVIDED for the others rather than an ERROR per family.
// Fill them in the order of the checklist in the README.md next to this file (each TODO message
// names that file, wherever this folder was copied to), re-running the command above.
//
// Rules that decide the bits (docs/porting.md): binary64 only, + - * / and Math.sqrt, each
// rounded once, in the order written; no Math.fround, no Math.hypot, no Math.cos/sin/atan2.
// JavaScript numbers are binary64 and V8 never fuses a*b+c, so plain expressions are fine.

import { createHash } from "node:crypto";
import { relative } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The protocol versions answered (docs/protocol.md, "Hello"): a hello gets the version it asks
 * for. Protocol 2 adds "provides", the families this port answers (PROVIDES). */
const PROTOCOLS = [1, 2];
const AGENT_BYTES = 32;

/** The vector families this port answers, as its hello declares them: add each family here once
 * its function is written (and `node check-vectors.mjs FAMILY` passes). The suite asks only
 * these; the vectors row is NOT PROVIDED, naming the others, until every family is here, and
 * `orca-conformance matrix --strict` fails until then. A port that wraps an existing library
 * lists what the library can answer (docs/porting.md, "Wrapping an existing library"). */
const PROVIDES = ["splitmix64", "uniform"];

/** A request the port cannot answer: becomes {"error": message}. */
class PortError extends Error {}

/** The README.md beside this file, as the messages name it: relative to the current folder when
 * that is shorter (README.md when run from here), else absolute. Computed from this file's own
 * location, so a copy of the folder names its own README, not the original's. */
const README = (() => {
  const absolute = fileURLToPath(new URL("README.md", import.meta.url));
  const fromHere = relative(process.cwd(), absolute);
  return fromHere !== "" && fromHere.length < absolute.length ? fromHere : absolute;
})();

/** The marker of unwritten code: the error names the family and its checklist step. */
function todo(family) {
  throw new PortError(`TODO(skeleton-js): ${family} is not written yet `
    + `(step ${CHECKLIST.indexOf(family) + 1} of the checklist in ${README})`);
}

/** The README's checklist, in the order a port is built (and the suite asks the families). */
const CHECKLIST = ["state hash", "splitmix64", "segment_distance_squared", "support_distance", "agent_case_form",
  "agent_constraint", "segment_constraint", "for_boundary", "solve_closest", "solve_direction", "relax",
  "obstacle_neighbors", "agent_neighbors", "preferred_velocity", "agent_step"];

// Encodings (docs/protocol.md, "Encodings") ---------------------------------------------------

const scratch = new DataView(new ArrayBuffer(8));

/** A double from its 16 hex digits (the IEEE bits, so no decimal rounding is involved). */
function fromHex(text) {
  if (typeof text !== "string" || !/^[0-9a-fA-F]{16}$/.test(text)) {
    throw new PortError(`bad hex double ${JSON.stringify(text)}`);
  }
  scratch.setBigUint64(0, BigInt(`0x${text}`));
  return scratch.getFloat64(0);
}

/** The 16 lowercase hex digits of a double's bits (-0.0 is 8000000000000000). */
function toHex(value) {
  scratch.setFloat64(0, value);
  return scratch.getBigUint64(0).toString(16).padStart(16, "0");
}

function integer(value) {
  if (!Number.isSafeInteger(value)) throw new PortError(`bad integer ${JSON.stringify(value)}`);
  return value;
}

function list(value, each) {
  if (!Array.isArray(value)) throw new PortError(`expected a list, got ${JSON.stringify(value).slice(0, 40)}`);
  return value.map(each);
}

/** Argument and result codecs, named as in the family table of docs/protocol.md. */
const DECODE = {
  d: fromHex,
  i: integer,
  "d*": (v) => list(v, fromHex),
  "i*": (v) => list(v, integer),
  "d2*": (v) => list(v, (row) => list(row, fromHex)),
  "d4*": (v) => list(v, (row) => list(row, fromHex)),
};
const ENCODE = {
  d: toHex,
  i: (v) => v,
  s: (v) => v,
  "d*": (v) => v.map(toHex),
  "i*": (v) => v.slice(),
  "d4*": (v) => v.map((row) => row.map(toHex)),
};

// State hash (docs/porting.md section 3) -------------------------------------------------------

const FIELDS = ["position.x", "position.y", "velocity.x", "velocity.y"];

/** Hex SHA-256 of the canonical bytes: px, py, vx, vy of each agent, little-endian binary64. */
function stateHash(agents) {
  const bytes = Buffer.alloc(agents.length * AGENT_BYTES);
  agents.forEach((a, i) => {
    [a.px, a.py, a.vx, a.vy].forEach((value, f) => bytes.writeDoubleLE(value, i * AGENT_BYTES + 8 * f));
  });
  return createHash("sha256").update(bytes).digest("hex");
}

/** The protocol's message for the first non-finite value in index order, or null. */
function nonFinite(agents, step) {
  for (let i = 0; i < agents.length; i += 1) {
    const values = [agents[i].px, agents[i].py, agents[i].vx, agents[i].vy];
    const f = values.findIndex((v) => !Number.isFinite(v));
    if (f >= 0) {
      const shown = Number.isNaN(values[f]) ? "nan" : values[f] > 0 ? "inf" : "-inf";
      return `non-finite state at step ${step}: agent ${i} ${FIELDS[f]} is ${shown}`;
    }
  }
  return null;
}

// SplitMix64 and U(n) (docs/porting.md section 2) -----------------------------------------------

const MASK = (1n << 64n) - 1n;

/** z of the stream of `seed` at index `n`, as an unsigned 64-bit BigInt. */
function splitmix64(seed, n) {
  let z = (BigInt(seed) + (BigInt(n) + 1n) * 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

/** U(n) in [-1, 1): the top 53 bits, centred, scaled by 2^-52 (every operation exact). */
function uniform(seed, n) {
  return Number((splitmix64(seed, n) >> 11n) - (1n << 52n)) * 2 ** -52;
}

// Solver primitives: TODO, one per vector family ------------------------------------------------
// Arguments arrive decoded (doubles as numbers, integers, lists); return the result entries as a
// list, in the order of the family table of docs/protocol.md. docs/spec-notes.md says how each
// one rounds; the normative text says what each one computes.

function segmentDistanceSquared(ax, ay, bx, by) { return todo("segment_distance_squared"); }
function supportDistance(ax, ay, bx, by, r, tau, xx, xy, overlap) { return todo("support_distance"); }
function agentCaseForm(ax, ay, r, tau, xx, xy) { return todo("agent_case_form"); }
function agentConstraint(ax, ay, r, tau, dt, vax, vay, vbx, vby) { return todo("agent_constraint"); }
function segmentConstraint(ax, ay, bx, by, r, tau, dt) { return todo("segment_constraint"); }
/** Returns [[Px, Py, Nx, Ny]] or [[]] (no constraint). */
function forBoundary(ax, ay, bx, by, clearance, tau) { return todo("for_boundary"); }
/** Returns [vx, vy, failed]; failed is -1 when every line holds. */
function solveClosest(lines, R, px, py) { return todo("solve_closest"); }
function solveDirection(lines, R, ox, oy) { return todo("solve_direction"); }
function relax(lines, hardCount, R, failed) { return todo("relax"); }
/** Returns [indices], in constraint order. */
function obstacleNeighbors(x, y, reach, segments) { return todo("obstacle_neighbors"); }
function agentNeighbors(i, xs, ys, nd, maxNeighbors) { return todo("agent_neighbors"); }

/** The driver's preferred velocity of one agent (docs/porting.md section 2): [prefx, prefy, k]. */
function preferredVelocity(px, py, waypoints, k, goalRadius, maxSpeed, dt, seed, magnitude, step, agent, agentCount) {
  return todo("preferred_velocity");
}

/** Agent i's work in one step, from the start-of-step state `sim` (see makeSim) and the
 * preferred velocities: [lines, hardCount, vx, vy] (obstacle constraints first). Build it from
 * the functions above; the step loop and the agent_step family both call it. */
function agentStep(sim, prefs, i) { return todo("agent_step"); }

// Vector families (docs/protocol.md, "Vector families") ----------------------------------------

/** name -> [argument codecs, result codecs, function]. A family the suite adds later and this
 * table lacks is answered with an error naming it. */
const FAMILIES = {
  segment_distance_squared: [["d", "d", "d", "d"], ["d"], segmentDistanceSquared],
  support_distance: [["d", "d", "d", "d", "d", "d", "d", "d", "i"], ["d", "d", "d"], supportDistance],
  agent_case_form: [["d", "d", "d", "d", "d", "d"], ["d", "d", "d", "d"], agentCaseForm],
  agent_constraint: [["d", "d", "d", "d", "d", "d", "d", "d", "d"], ["d", "d", "d", "d"], agentConstraint],
  segment_constraint: [["d", "d", "d", "d", "d", "d", "d"], ["d", "d", "d", "d"], segmentConstraint],
  for_boundary: [["d", "d", "d", "d", "d", "d"], ["d*"], forBoundary],
  solve_closest: [["d4*", "d", "d", "d"], ["d", "d", "i"], solveClosest],
  solve_direction: [["d4*", "d", "d", "d"], ["d", "d", "i"], solveDirection],
  relax: [["d4*", "i", "d", "i"], ["d", "d"], relax],
  obstacle_neighbors: [["d", "d", "d", "d4*"], ["i*"], obstacleNeighbors],
  agent_neighbors: [["i", "d*", "d*", "d", "i"], ["i*"], agentNeighbors],
  splitmix64: [["i", "i"], ["s"], (seed, n) => [splitmix64(seed, n).toString(16).padStart(16, "0")]],
  uniform: [["i", "i"], ["d"], (seed, n) => [uniform(seed, n)]],
  preferred_velocity: [["d", "d", "d2*", "i", "d", "d", "d", "i", "d", "i", "i", "i"], ["d", "d", "i"],
    preferredVelocity],
  agent_step: [["i", "d*", "d*", "d*", "d*", "d*", "d*", "d*", "d*", "d*", "i*", "d*", "d*", "d4*", "d"],
    ["d4*", "i", "d", "d"], agentStepCase],
};

/** The agent_step family: the given state put into a simulation, then agent i's step of it. */
function agentStepCase(i, xs, ys, vxs, vys, prefxs, prefys, radii, maxSpeeds, nds, maxNeighbors, taus, tauObsts,
  segments, dt) {
  const agents = xs.map((_, j) => ({
    px: xs[j], py: ys[j], vx: vxs[j], vy: vys[j], radius: radii[j], maxSpeed: maxSpeeds[j],
    neighborDistance: nds[j], maxNeighbors: maxNeighbors[j], timeHorizon: taus[j], timeHorizonObst: tauObsts[j],
  }));
  const sim = makeSim({ dt, segments, agents: [] });
  sim.agents = agents;
  return agentStep(sim, xs.map((_, j) => [prefxs[j], prefys[j]]), i);
}

function answerVectors(request) {
  const family = FAMILIES[request.family];
  if (family === undefined) {
    throw new PortError(`vector family ${JSON.stringify(request.family)} is not known to this port `
      + "(added to docs/protocol.md after the skeleton was written? add it to FAMILIES)");
  }
  const [argTypes, resultTypes, compute] = family;
  return list(request.cases, (args, index) => {
    if (!Array.isArray(args) || args.length !== argTypes.length) {
      throw new PortError(`${request.family}: case ${index} needs ${argTypes.length} arguments`);
    }
    const result = compute(...args.map((value, k) => DECODE[argTypes[k]](value)));
    return result.map((value, k) => ENCODE[resultTypes[k]](value));
  });
}

// Scenes and the step loop (docs/porting.md sections 1 and 2) ----------------------------------

/** The simulation state of an expanded scene (JSON decimals read exactly by Number). */
function makeSim(scene) {
  if (scene === null || typeof scene !== "object") throw new PortError("scene must be an object");
  const agents = (scene.agents ?? []).map((a) => ({
    px: a.position[0], py: a.position[1], vx: a.velocity[0], vy: a.velocity[1], radius: a.radius,
    maxSpeed: a.max_speed, neighborDistance: a.neighbor_distance, maxNeighbors: a.max_neighbors,
    timeHorizon: a.time_horizon, timeHorizonObst: a.time_horizon_obst, goalRadius: a.goal_radius,
    waypoints: a.waypoints, k: 0,
  }));
  const perturbation = scene.perturbation ?? { seed: 0, magnitude: 0 };
  return { dt: scene.dt, segments: scene.segments ?? [], seed: perturbation.seed, magnitude: perturbation.magnitude,
    agents, step: 0 };
}

/** Every agent's preferred velocity from the current state (advances the waypoint indices). */
function preferredVelocities(sim) {
  return sim.agents.map((a, i) => {
    const [x, y, k] = preferredVelocity(a.px, a.py, a.waypoints, a.k, a.goalRadius, a.maxSpeed, sim.dt, sim.seed,
      sim.magnitude, sim.step, i, sim.agents.length);
    a.k = k;
    return [x, y];
  });
}

/** One step: new velocities all from the start-of-step state, then v = v_new, p = p + v * dt. */
function advance(sim) {
  const prefs = preferredVelocities(sim);
  const next = sim.agents.map((_, i) => agentStep(sim, prefs, i));
  sim.agents.forEach((a, i) => {
    a.vx = next[i][2];
    a.vy = next[i][3];
    a.px += a.vx * sim.dt;
    a.py += a.vy * sim.dt;
  });
  sim.step += 1;
}

function* answerRun(request) {
  const steps = integer(request.steps);
  const sim = makeSim(request.scene);
  for (let k = 0; k <= steps; k += 1) {
    if (k > 0) advance(sim);
    const bad = nonFinite(sim.agents, k);
    if (bad) throw new PortError(bad);
    yield { step: k, hash: stateHash(sim.agents) };
  }
  yield { done: steps };
}

function answerDump(request) {
  const step = integer(request.step);
  const sim = makeSim(request.scene);
  for (let k = 0; k < step; k += 1) {
    advance(sim);
    const bad = nonFinite(sim.agents, k + 1);
    if (bad && k + 1 < step) throw new PortError(bad);
  }
  const prefs = nonFinite(sim.agents, step) ? sim.agents.map(() => [NaN, NaN]) : preferredVelocities(sim);
  return { step, agents: sim.agents.map((a, i) => [a.px, a.py, a.vx, a.vy, ...prefs[i]].map(toHex)) };
}

// The protocol loop ----------------------------------------------------------------------------

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function hello(request) {
  if (!PROTOCOLS.includes(request.protocol)) {
    throw new PortError(`this port speaks protocols ${PROTOCOLS.join(" and ")}, not ${request.protocol}`);
  }
  return {
    protocol: request.protocol,
    port: { name: "orca-skeleton-js", version: "0.1.0", language: "JavaScript", platform: `${process.platform}-${process.arch}`,
      compiler: `Node.js ${process.version} (V8 ${process.versions.v8})`, flags: "" },
    ...(request.protocol >= 2 ? { provides: PROVIDES } : {}),
  };
}

/** Answer one request line; every failure becomes one error reply (lines already sent stand). */
function handle(line) {
  if (line.trim() === "") return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    send({ error: `malformed request: ${err.message}` });
    return;
  }
  try {
    switch (request?.cmd) {
      case "hello": send(hello(request)); break;
      case "run": for (const reply of answerRun(request)) send(reply); break;
      case "dump": send(answerDump(request)); break;
      case "vectors": send({ results: answerVectors(request) }); break;
      case "bye": process.exit(0); break;
      default: throw new PortError(`unknown cmd ${JSON.stringify(request?.cmd)}`);
    }
  } catch (err) {
    if (!(err instanceof PortError)) process.stderr.write(`${err.stack}\n`);
    send({ error: err instanceof PortError ? err.message : `internal error: ${err.message}` });
  }
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", handle);
input.on("close", () => process.exit(0));
