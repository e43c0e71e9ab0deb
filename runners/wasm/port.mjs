#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// ORCA conformance: the wasm32 build of the C port under Node.js's WebAssembly engine (V8),
// behind the suite's port protocol (docs/protocol.md; the C CLI in runners/c/cli is the
// reference for behaviour, error replies included).
//
//   node runners/wasm/port.mjs <orca.wasm>
//
// One JSON request per line on stdin, one JSON reply per line on stdout; diagnostics on stderr.
// Every run, dump and vectors request gets a fresh instance of the module, so a trap never
// leaves state behind: it becomes {"error": "wasm trap: ..."} and the next request starts clean.
// Doubles cross into the module as JavaScript numbers (exact for every non-NaN value: JSON
// decimals are read with correct rounding) or as bit patterns written into linear memory;
// results and states are read back as bytes, so no JavaScript number touches an output.
// Exports and memory layout: docs/wasm.md. Set ORCA_PORT_TIMING=1 to log the time of each
// run's orca_run_advance calls (wall clock and process CPU time) to stderr (the benchmark
// reads it).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import process from "node:process";
import { createInterface } from "node:readline";

// The protocol versions answered (docs/protocol.md): a hello gets a reply in the version it asks
// for (the newest when it names none); protocol 2 adds "provides", every family here.
const PROTOCOL = 2;
const PROTOCOLS = [1, 2];
const ABI_VERSION = 1;
const AGENT_BYTES = 32;
const BATCH_BYTES = 8 * 1024 * 1024;
const MAX_BATCH_STEPS = 256;
const BAD_ARGUMENT = -2;
const OUT_OF_MEMORY = -3;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const TIMING = process.env.ORCA_PORT_TIMING === "1";

class PortError extends Error {}

const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

// Module ---------------------------------------------------------------------------------------

const modulePath = process.argv[2];
if (!modulePath) {
  process.stderr.write("usage: node port.mjs <orca.wasm>\n");
  process.exit(2);
}
const moduleBytes = readFileSync(modulePath);
const moduleSha256 = createHash("sha256").update(moduleBytes).digest("hex");
const compiled = new WebAssembly.Module(moduleBytes);
const unexpectedImports = WebAssembly.Module.imports(compiled);
if (unexpectedImports.length > 0) {
  process.stderr.write(`orca-wasm: the module imports ${unexpectedImports.map((i) => `${i.module}.${i.name}`).join(", ")}\n`);
  process.exit(2);
}

/** A fresh instance: its exports, memory views and helpers. */
function instantiate() {
  const instance = new WebAssembly.Instance(compiled, {});
  const x = instance.exports;
  const m = {
    x,
    view: () => new DataView(x.memory.buffer),
    bytes: (ptr, len) => new Uint8Array(x.memory.buffer, ptr, len),
    alloc(size) {
      const ptr = x.orca_alloc(Math.max(1, size));
      if (ptr === 0) throw new PortError("out of memory");
      return ptr;
    },
    result: 0,
  };
  m.result = x.orca_result();
  return m;
}

const buildInfo = (() => {
  const m = instantiate();
  if (m.x.orca_abi_version() !== ABI_VERSION) {
    process.stderr.write(`orca-wasm: export layer version ${m.x.orca_abi_version()}, this port speaks ${ABI_VERSION}\n`);
    process.exit(2);
  }
  const ptr = m.x.orca_build_info();
  const raw = m.bytes(ptr, 512);
  const text = Buffer.from(raw.subarray(0, raw.indexOf(0))).toString("utf8");
  const cut = text.indexOf("; flags: ");
  return cut < 0 ? { compiler: text, flags: "" } : { compiler: text.slice(0, cut), flags: text.slice(cut + 9) };
})();

// Output ---------------------------------------------------------------------------------------

async function sendText(text) {
  if (!process.stdout.write(text)) {
    await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}

function send(object) {
  return sendText(JSON.stringify(object) + "\n");
}

function sendError(message) {
  process.stderr.write(`orca-wasm: ${message}\n`);
  return send({ error: message });
}

// Hex doubles ------------------------------------------------------------------------------------

const scratch = new DataView(new ArrayBuffer(8));
const HEX16 = /^[0-9a-fA-F]{16}$/;

/** A 16-hex-digit bit pattern as a BigInt, or null. */
function hexBits(value) {
  return typeof value === "string" && HEX16.test(value) ? BigInt("0x" + value) : null;
}

function bitsToNumber(bits) {
  scratch.setBigUint64(0, bits);
  return scratch.getFloat64(0);
}

function hexAt(view, ptr) {
  return view.getBigUint64(ptr, true).toString(16).padStart(16, "0");
}

/** count double result slots as hex strings, straight from memory. */
function resultHex(m, count) {
  const view = m.view();
  const out = [];
  for (let k = 0; k < count; ++k) out.push(hexAt(view, m.result + 8 * k));
  return out;
}

// Scene ------------------------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isNumber = (v) => typeof v === "number";
const isInt = (v) => Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX;
const isPair = (v) => Array.isArray(v) && v.length === 2 && isNumber(v[0]) && isNumber(v[1]);

function readNumber(object, key, path) {
  const value = object[key];
  if (!isNumber(value)) throw new PortError(`${path}.${key}: expected a number`);
  return value;
}

/** The expanded scene checked as the C CLI checks it (same messages). */
function readScene(json) {
  if (!isObject(json)) throw new PortError("scene: expected an object");
  const dt = readNumber(json, "dt", "scene");
  if (!isInt(json.steps) || json.steps < 0) throw new PortError("scene.steps: expected a non-negative integer");
  const perturbation = json.perturbation;
  if (!isObject(perturbation)) throw new PortError("scene.perturbation: expected an object");
  const seed = perturbation.seed;
  if (!Number.isInteger(seed)) throw new PortError("scene.perturbation.seed: expected an integer");
  if (!Number.isSafeInteger(seed)) {
    throw new PortError("scene.perturbation.seed: expected an integer below 2^53 (JSON numbers are doubles here)");
  }
  const magnitude = readNumber(perturbation, "magnitude", "scene.perturbation");
  if (!Array.isArray(json.segments)) throw new PortError("scene.segments: expected a list");
  if (!Array.isArray(json.agents)) throw new PortError("scene.agents: expected a list");
  json.segments.forEach((s, k) => {
    if (!(Array.isArray(s) && s.length === 4 && s.every(isNumber))) {
      throw new PortError(`scene.segments[${k}]: expected [ax, ay, bx, by]`);
    }
  });
  const agents = json.agents.map((a, index) => {
    const path = `scene.agents[${index}]`;
    if (!isObject(a)) throw new PortError(`${path}: expected an object`);
    if (!isPair(a.position)) throw new PortError(`${path}.position: expected [x, y]`);
    if (!isPair(a.velocity)) throw new PortError(`${path}.velocity: expected [x, y]`);
    const agent = {
      position: a.position,
      velocity: a.velocity,
      radius: readNumber(a, "radius", path),
      maxSpeed: readNumber(a, "max_speed", path),
      neighborDistance: readNumber(a, "neighbor_distance", path),
      timeHorizon: readNumber(a, "time_horizon", path),
      timeHorizonObst: readNumber(a, "time_horizon_obst", path),
      goalRadius: readNumber(a, "goal_radius", path),
    };
    if (!isInt(a.max_neighbors)) throw new PortError(`${path}.max_neighbors: expected an integer`);
    agent.maxNeighbors = a.max_neighbors;
    if (!Array.isArray(a.waypoints) || a.waypoints.length < 1) {
      throw new PortError(`${path}.waypoints: expected a non-empty list of [x, y]`);
    }
    a.waypoints.forEach((w, k) => {
      if (!isPair(w)) throw new PortError(`${path}.waypoints[${k}]: expected [x, y]`);
    });
    agent.waypoints = a.waypoints;
    return agent;
  });
  return { dt, steps: json.steps, seed: BigInt(seed), magnitude, segments: json.segments, agents };
}

/** A fresh instance holding the scene and a run at step 0: {m, run, n}. */
function startRun(scene) {
  const m = instantiate();
  const { x } = m;
  const handle = x.orca_scene_create(scene.dt, scene.steps, scene.seed, scene.magnitude);
  if (handle === 0) throw new PortError("out of memory");
  for (const [ax, ay, bx, by] of scene.segments) {
    if (x.orca_scene_add_segment(handle, ax, ay, bx, by) < 0) throw new PortError("out of memory");
  }
  for (const a of scene.agents) {
    const wps = m.alloc(16 * a.waypoints.length);
    const view = m.view();
    a.waypoints.forEach(([wx, wy], k) => {
      view.setFloat64(wps + 16 * k, wx, true);
      view.setFloat64(wps + 16 * k + 8, wy, true);
    });
    const index = x.orca_scene_add_agent(handle, a.position[0], a.position[1], a.velocity[0], a.velocity[1], a.radius,
      a.maxSpeed, a.neighborDistance, a.maxNeighbors, a.timeHorizon, a.timeHorizonObst, a.goalRadius, wps,
      a.waypoints.length);
    x.orca_free(wps);
    if (index < 0) throw new PortError("out of memory");
  }
  const run = x.orca_run_create(handle);
  if (run === 0) throw new PortError("out of memory creating the run");
  return { m, run, n: scene.agents.length };
}

/** Every double of canonical bytes finite (exponent bits not all ones). */
function finiteBytes(bytes) {
  for (let k = 0; k + 8 <= bytes.length; k += 8) {
    if ((bytes[k + 7] & 0x7f) === 0x7f && (bytes[k + 6] & 0xf0) === 0xf0) return false;
  }
  return true;
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

const STATE_FIELDS = ["position.x", "position.y", "velocity.x", "velocity.y"];

/** The error of a run that met a NaN or an infinity at step, naming the first agent and field
 * of the run's current state that are not finite (as the C CLI does). */
function nonFiniteMessage(m, run, n, step) {
  const out = m.alloc(48 * n);
  m.x.orca_run_dump(run, out);
  const view = m.view();
  let message = `non-finite state at step ${step}`;
  search: for (let i = 0; i < n; ++i) {
    for (let f = 0; f < 4; ++f) {
      const bits = view.getBigUint64(out + 48 * i + 8 * f, true);
      if (((bits >> 52n) & 0x7ffn) !== 0x7ffn) continue;
      // spelled as Python's repr spells them
      const value = (bits & 0xfffffffffffffn) !== 0n ? "nan" : bits >> 63n ? "-inf" : "inf";
      message = `non-finite state at step ${step}: agent ${i} ${STATE_FIELDS[f]} is ${value}`;
      break search;
    }
  }
  m.x.orca_free(out);
  return message;
}

// Commands -------------------------------------------------------------------------------------

async function hello(request) {
  const version = hasOwn(request, "protocol") ? request.protocol : PROTOCOL;
  if (!PROTOCOLS.includes(version)) {
    return sendError("hello: unsupported protocol (this port speaks protocols 1 and 2)");
  }
  return send({
    protocol: version,
    port: {
      name: "orca-c-wasm",
      version: "0.1.0",
      language: "C99 (wasm32 module)",
      platform: `wasm32 (node ${process.version} on ${process.platform}-${process.arch})`,
      compiler: buildInfo.compiler,
      flags: buildInfo.flags,
      engine: `V8 ${process.versions.v8}`,
      node: process.version,
      module_sha256: moduleSha256,
      module_size: moduleBytes.length,
    },
    ...(version >= 2 ? { provides: Object.keys(FAMILIES) } : {}),
  });
}

async function runCommand(request) {
  let steps = -1;
  if (hasOwn(request, "steps")) {
    if (!isInt(request.steps) || request.steps < 0) return sendError('run: "steps" must be a non-negative integer');
    steps = request.steps;
  }
  const scene = readScene(request.scene);
  if (steps < 0) steps = scene.steps;
  const started = process.hrtime.bigint();
  let advanceNs = 0n;
  let advanceCpuUs = 0;
  const { m, run, n } = startRun(scene);
  const { x } = m;
  const stride = n * AGENT_BYTES;
  const state = m.alloc(stride);
  x.orca_run_canonical_state(run, state);
  const first = m.bytes(state, stride);
  if (!finiteBytes(first)) return sendError(nonFiniteMessage(m, run, n, 0));
  await send({ step: 0, hash: sha256(first) });
  const batch = Math.max(1, Math.min(MAX_BATCH_STEPS, Math.floor(BATCH_BYTES / Math.max(1, stride))));
  const buffer = m.alloc(batch * stride);
  let done = 0;
  while (done < steps) {
    const count = Math.min(batch, steps - done);
    const t0 = process.hrtime.bigint();
    const c0 = TIMING ? process.cpuUsage() : null;
    const bad = x.orca_run_advance(run, count, buffer);
    advanceNs += process.hrtime.bigint() - t0;
    if (TIMING) {
      const c1 = process.cpuUsage(c0);
      advanceCpuUs += c1.user + c1.system;
    }
    const good = bad === 0 ? count : bad - 1;
    const states = m.bytes(buffer, good * stride);
    let text = "";
    for (let k = 0; k < good; ++k) {
      text += `{"step":${done + k + 1},"hash":"${sha256(states.subarray(k * stride, (k + 1) * stride))}"}\n`;
    }
    if (text) await sendText(text);
    if (bad !== 0) return sendError(nonFiniteMessage(m, run, n, done + bad));
    done += count;
  }
  if (TIMING) {
    const total = Number(process.hrtime.bigint() - started) / 1e6;
    process.stderr.write(`orca-wasm: timing: ${steps} steps of ${n} agents: orca_run_advance ` +
      `${(Number(advanceNs) / 1e6).toFixed(3)} ms (CPU ${(advanceCpuUs / 1e3).toFixed(3)} ms), ` +
      `whole request ${total.toFixed(3)} ms\n`);
  }
  return send({ done: steps });
}

async function dumpCommand(request) {
  if (!isInt(request.step) || request.step < 0) return sendError('dump: "step" must be a non-negative integer');
  const step = request.step;
  const scene = readScene(request.scene);
  const { m, run, n } = startRun(scene);
  const { x } = m;
  let done = 0;
  while (done < step) {
    const count = Math.min(MAX_BATCH_STEPS, step - done);
    const bad = x.orca_run_advance(run, count, 0);
    // the first non-finite state itself is dumped (its NaNs are data for the diagnosis)
    if (bad !== 0 && done + bad < step) return sendError(nonFiniteMessage(m, run, n, done + bad));
    done += bad !== 0 ? bad : count;
  }
  const out = m.alloc(48 * n);
  x.orca_run_dump(run, out);
  const view = m.view();
  const agents = [];
  for (let i = 0; i < n; ++i) {
    const row = [];
    for (let f = 0; f < 6; ++f) row.push(hexAt(view, out + 48 * i + 8 * f));
    agents.push(row);
  }
  return send({ step, agents });
}

// Vectors --------------------------------------------------------------------------------------

/** Reader of one case's arguments (the first problem is kept, as in the C CLI). */
class Case {
  constructor(m, args) {
    this.m = m;
    this.args = args;
    this.index = 0;
    this.problem = null;
    this.problemIndex = 0;
    this.allocated = [];
  }

  fail(index, problem) {
    if (this.problem === null) {
      this.problem = problem;
      this.problemIndex = index;
    }
  }

  next() {
    return this.args[this.index++];
  }

  double() {
    const index = this.index;
    const bits = hexBits(this.next());
    if (bits === null) {
      this.fail(index, "expected a hex double (16 hex digits)");
      return 0;
    }
    return bitsToNumber(bits);
  }

  int() {
    const index = this.index;
    const value = this.next();
    if (!isInt(value)) {
      this.fail(index, "expected an integer that fits an int");
      return 0;
    }
    return value;
  }

  // An integer taken modulo 2^64, as the reference masks seed and n.
  word() {
    const index = this.index;
    const value = this.next();
    if (!Number.isInteger(value)) {
      this.fail(index, "expected a 64-bit integer");
      return 0n;
    }
    if (!Number.isSafeInteger(value)) {
      this.fail(index, "expected an integer below 2^53 (JSON numbers are doubles here)");
      return 0n;
    }
    return BigInt.asUintN(64, BigInt(value));
  }

  // A list of rows of width hex doubles (width 1: a flat list), written as bit patterns into
  // linear memory: {ptr, count}.
  rows(width) {
    const index = this.index;
    const list = this.next();
    if (!Array.isArray(list)) {
      this.fail(index, "expected a list");
      return { ptr: 0, count: 0 };
    }
    const bits = [];
    for (const row of list) {
      if (width === 1) {
        const b = hexBits(row);
        if (b === null) {
          this.fail(index, "expected a list of hex doubles");
          return { ptr: 0, count: 0 };
        }
        bits.push(b);
        continue;
      }
      if (!Array.isArray(row) || row.length !== width) {
        this.fail(index, width === 4 ? "expected rows of 4 hex doubles" : "expected rows of 2 hex doubles");
        return { ptr: 0, count: 0 };
      }
      for (const item of row) {
        const b = hexBits(item);
        if (b === null) {
          this.fail(index, "expected rows of hex doubles");
          return { ptr: 0, count: 0 };
        }
        bits.push(b);
      }
    }
    const ptr = this.m.alloc(8 * bits.length);
    this.allocated.push(ptr);
    const view = this.m.view();
    bits.forEach((b, k) => view.setBigUint64(ptr + 8 * k, b, true));
    return { ptr, count: list.length };
  }

  // A list of integers that fit an int, written as int32 into linear memory: {ptr, count}.
  ints() {
    const index = this.index;
    const list = this.next();
    if (!Array.isArray(list) || !list.every(isInt)) {
      this.fail(index, Array.isArray(list) ? "expected a list of integers that fit an int" : "expected a list");
      return { ptr: 0, count: 0 };
    }
    const ptr = this.m.alloc(4 * list.length);
    this.allocated.push(ptr);
    const view = this.m.view();
    list.forEach((v, k) => view.setInt32(ptr + 4 * k, v, true));
    return { ptr, count: list.length };
  }

  // count int32 slots for neighbour indices.
  indexSlots(count) {
    const ptr = this.m.alloc(4 * count);
    this.allocated.push(ptr);
    return ptr;
  }

  free() {
    for (const ptr of this.allocated) this.m.x.orca_free(ptr);
    this.allocated = [];
  }
}

function indices(m, ptr, n) {
  if (n === OUT_OF_MEMORY) throw new PortError("out of memory");
  const view = m.view();
  const out = [];
  for (let k = 0; k < n; ++k) out.push(view.getInt32(ptr + 4 * k, true));
  return [out];
}

// Each family reads its arguments and returns its result list, or null when c.problem is set.
const FAMILIES = {
  segment_distance_squared: [4, (c) => {
    const a = [c.double(), c.double(), c.double(), c.double()];
    if (c.problem) return null;
    c.m.x.orca_segment_distance_squared(...a);
    return resultHex(c.m, 1);
  }],
  support_distance: [9, (c) => {
    const a = [c.double(), c.double(), c.double(), c.double(), c.double(), c.double(), c.double(), c.double()];
    const overlap = c.int();
    if (c.problem) return null;
    c.m.x.orca_support_distance(...a, overlap);
    return resultHex(c.m, 3);
  }],
  agent_case_form: [6, (c) => {
    const a = [c.double(), c.double(), c.double(), c.double(), c.double(), c.double()];
    if (c.problem) return null;
    c.m.x.orca_agent_case_form(...a);
    return resultHex(c.m, 4);
  }],
  agent_constraint: [9, (c) => {
    const a = Array.from({ length: 9 }, () => c.double());
    if (c.problem) return null;
    c.m.x.orca_agent_constraint(...a);
    return resultHex(c.m, 4);
  }],
  segment_constraint: [7, (c) => {
    const a = Array.from({ length: 7 }, () => c.double());
    if (c.problem) return null;
    c.m.x.orca_segment_constraint(...a);
    return resultHex(c.m, 4);
  }],
  for_boundary: [6, (c) => {
    const a = Array.from({ length: 6 }, () => c.double());
    if (c.problem) return null;
    return c.m.x.orca_for_boundary(...a) ? [resultHex(c.m, 4)] : [[]];
  }],
  solve_closest: [4, (c) => solve(c, "orca_solve_closest")],
  solve_direction: [4, (c) => solve(c, "orca_solve_direction")],
  relax: [4, (c) => {
    const lines = c.rows(4);
    const hardCount = c.int();
    const radius = c.double();
    const failed = c.int();
    if (!c.problem && (hardCount < 0 || hardCount > lines.count)) c.fail(1, "hardCount must be in 0 .. len(lines)");
    if (c.problem) return null;
    const status = c.m.x.orca_relax(lines.ptr, lines.count, hardCount, radius, failed);
    if (status === OUT_OF_MEMORY) throw new PortError("out of memory");
    return resultHex(c.m, 2);
  }],
  obstacle_neighbors: [4, (c) => {
    const px = c.double(), py = c.double(), reach = c.double();
    const segments = c.rows(4);
    if (c.problem) return null;
    const out = c.indexSlots(segments.count);
    return indices(c.m, out, c.m.x.orca_obstacle_neighbors(px, py, reach, segments.ptr, segments.count, out));
  }],
  agent_neighbors: [5, (c) => {
    const agent = c.int();
    const xs = c.rows(1);
    const ys = c.rows(1);
    const nd = c.double();
    const maxNeighbors = c.int();
    if (!c.problem && xs.count !== ys.count) c.fail(2, "xs and ys differ in length");
    if (!c.problem && (agent < 0 || agent >= xs.count)) c.fail(0, "agent index out of range");
    if (c.problem) return null;
    // interleave xs and ys into (x, y) pairs: the layout of ocVec2
    const n = xs.count;
    const pos = c.m.alloc(16 * n);
    c.allocated.push(pos);
    const view = c.m.view();
    for (let k = 0; k < n; ++k) {
      view.setBigUint64(pos + 16 * k, view.getBigUint64(xs.ptr + 8 * k, true), true);
      view.setBigUint64(pos + 16 * k + 8, view.getBigUint64(ys.ptr + 8 * k, true), true);
    }
    const out = c.indexSlots(n);
    return indices(c.m, out, c.m.x.orca_agent_neighbors(agent, pos, n, nd, maxNeighbors, out));
  }],
  splitmix64: [2, (c) => {
    const seed = c.word(), n = c.word();
    if (c.problem) return null;
    // the raw 64-bit output, not a double: 16 hex digits of z
    return [BigInt.asUintN(64, c.m.x.orca_splitmix64(seed, n)).toString(16).padStart(16, "0")];
  }],
  uniform: [2, (c) => {
    const seed = c.word(), n = c.word();
    if (c.problem) return null;
    c.m.x.orca_uniform(seed, n);
    return resultHex(c.m, 1);
  }],
  preferred_velocity: [12, (c) => {
    const px = c.double(), py = c.double();
    const waypoints = c.rows(2);
    const k = c.int();
    const goalRadius = c.double(), maxSpeed = c.double(), dt = c.double();
    const seed = c.word();
    const magnitude = c.double();
    const step = c.int(), agent = c.int(), agentCount = c.int();
    if (!c.problem && waypoints.count < 1) c.fail(2, "at least one waypoint is needed");
    if (!c.problem && (k < 0 || k >= waypoints.count)) c.fail(3, "waypoint index out of range");
    if (c.problem) return null;
    const newK = c.m.x.orca_preferred_velocity(px, py, waypoints.ptr, waypoints.count, k, goalRadius, maxSpeed, dt,
      seed, magnitude, step, agent, agentCount);
    if (newK === BAD_ARGUMENT) throw new PortError("bad preferred_velocity arguments");
    return [...resultHex(c.m, 2), newK];
  }],
  agent_step: [15, (c) => {
    const agent = c.int();
    // xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, neighbor_distances, max_neighbors,
    // time_horizons, time_horizon_obsts
    const lists = Array.from({ length: 12 }, (_, k) => (k === 9 ? c.ints() : c.rows(1)));
    const segments = c.rows(4);
    const dt = c.double();
    if (c.problem) return null;
    const n = lists[0].count;
    if (lists.some((l) => l.count !== n)) c.fail(1, "the per-agent lists (arguments 1-12) differ in length");
    if (!c.problem && (agent < 0 || agent >= n)) c.fail(0, "agent index out of range");
    if (c.problem) return null;
    // records: n rows of 11 doubles (x, y, vx, vy, prefx, prefy, radius, maxSpeed,
    // neighborDistance, timeHorizon, timeHorizonObst), copied as bit patterns
    const records = c.indexSlots(22 * n);
    const lines = c.indexSlots(8 * (n + segments.count));
    const hard = c.indexSlots(1);
    const view = c.m.view();
    const columns = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11];
    for (let i = 0; i < n; ++i) {
      columns.forEach((list, j) => {
        view.setBigUint64(records + 88 * i + 8 * j, view.getBigUint64(lists[list].ptr + 8 * i, true), true);
      });
    }
    const count = c.m.x.orca_agent_step(agent, records, lists[9].ptr, n, segments.ptr, segments.count, dt, lines, hard);
    if (count === OUT_OF_MEMORY) throw new PortError("out of memory");
    if (count < 0) throw new PortError("bad agent_step arguments");
    const out = c.m.view();
    const planes = [];
    for (let k = 0; k < count; ++k) planes.push([0, 1, 2, 3].map((f) => hexAt(out, lines + 32 * k + 8 * f)));
    return [planes, out.getInt32(hard, true), ...resultHex(c.m, 2)];
  }],
};

function solve(c, name) {
  const lines = c.rows(4);
  const radius = c.double(), px = c.double(), py = c.double();
  if (c.problem) return null;
  const failed = c.m.x[name](lines.ptr, lines.count, radius, px, py);
  return [...resultHex(c.m, 2), failed];
}

async function vectorsCommand(request) {
  const family = request.family;
  if (typeof family !== "string") return sendError('vectors: "family" must be a string');
  if (!hasOwn(FAMILIES, family)) return sendError(`vectors: unknown family "${family.slice(0, 64)}"`);
  const cases = request.cases;
  if (!Array.isArray(cases)) return sendError('vectors: "cases" must be a list');
  const [argCount, body] = FAMILIES[family];
  const m = instantiate();
  const results = [];
  for (let index = 0; index < cases.length; ++index) {
    const args = cases[index];
    if (!Array.isArray(args) || args.length !== argCount) {
      return sendError(`vectors ${family}: case ${index} must be a list of ${argCount} arguments`);
    }
    const c = new Case(m, args);
    let result;
    try {
      result = body(c);
    } finally {
      c.free();
    }
    if (result === null) {
      return sendError(`vectors ${family}: case ${index}, argument ${c.problemIndex}: ${c.problem || "invalid"}`);
    }
    results.push(result);
  }
  return send({ results });
}

// Session --------------------------------------------------------------------------------------

function parse(line) {
  try {
    return { request: JSON.parse(line) };
  } catch (err) {
    return { error: `malformed JSON: ${err.message}` };
  }
}

/** One request line; false after bye. */
async function handle(line) {
  const { request, error } = parse(line);
  if (error) {
    await sendError(error);
    return true;
  }
  if (!isObject(request)) {
    await sendError("a request is a JSON object");
    return true;
  }
  const cmd = request.cmd;
  if (typeof cmd !== "string") {
    await sendError('the request has no "cmd" string');
    return true;
  }
  if (cmd === "bye") return false;
  const commands = { hello, run: runCommand, dump: dumpCommand, vectors: vectorsCommand };
  if (!hasOwn(commands, cmd)) {
    await sendError(`unknown command "${cmd.slice(0, 64)}"`);
    return true;
  }
  try {
    await commands[cmd](request);
  } catch (err) {
    if (err instanceof PortError) {
      await sendError(err.message);
    } else if (err instanceof WebAssembly.RuntimeError) {
      await sendError(`wasm trap in ${cmd}: ${err.message}`);
    } else if (err instanceof RangeError) {
      await sendError(`${cmd}: ${err.message}`);
    } else {
      await sendError(`internal error in ${cmd}: ${err && err.stack ? err.stack.split("\n")[0] : err}`);
    }
  }
  return true;
}

async function main() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of lines) {
    // blank lines carry no request and get no reply
    if (line.trim() === "") continue;
    if (!(await handle(line))) break;
  }
  lines.close();
  process.stdin.destroy();
  process.stdout.write("", () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`orca-wasm: fatal: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
