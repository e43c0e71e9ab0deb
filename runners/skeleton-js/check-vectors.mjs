#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A per-family self-check for a port under construction: sends the cases of
// goldens/vectors/<family>.json to a port over the protocol and compares its results with the
// stored ones, value for value, as the suite's vectors row does. It is a quick answer to "is
// this family done?"; the gate is still `orca-conformance matrix`.
//
//   node check-vectors.mjs FAMILY [FAMILY ...] [--port 'COMMAND WORDS'] [--suite DIR]
//
// The port command defaults to the skeleton next to this file (`node port.mjs`); other ports are
// given as words split at spaces (no quoting). The vectors come from the suite, found in this
// order (the first one given is the only one tried):
//   1. --suite DIR: a suite folder, the one holding goldens/vectors;
//   2. the environment variable ORCA_CONFORMANCE_SUITE, as for `orca-conformance` itself;
//   3. the installed Python package: the suite `orca-conformance` finds when run from the
//      current folder (Suite.locate), asked of $PYTHON or python3, else python.
// So the file works wherever it is copied. Exit status 0 when every family passes, 1 otherwise,
// 2 for bad usage or when the suite cannot be found.

import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const HOW_TO_FIX = "install the suite (pip install -e <suite checkout>) or pass --suite DIR "
  + "(a suite folder, the one holding goldens/vectors)";

function usage(message) {
  process.stderr.write(`check-vectors: ${message}\n`
    + "usage: node check-vectors.mjs FAMILY [FAMILY ...] [--port 'COMMAND'] [--suite DIR]\n");
  process.exit(2);
}

/** Stops with one line on stderr (no stack trace) and exit status 2. */
function fail(message) {
  process.stderr.write(`check-vectors: ${message}\n`);
  process.exit(2);
}

function isFolder(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The suite root as the Python package finds it, or {tried} saying why each interpreter failed. */
function askPython() {
  const code = "from conformance.data.suite import Suite; print(Suite.locate().root)";
  const pythons = [...new Set([process.env.PYTHON || "python3", "python"])];
  const tried = [];
  for (const python of pythons) {
    const done = spawnSync(python, ["-c", code], { cwd: process.cwd(), encoding: "utf8", timeout: 60_000 });
    if (done.error) {
      tried.push(`${python}: ${done.error.code === "ENOENT" ? "not found" : done.error.message}`);
      continue;
    }
    const root = done.stdout.trim().split("\n").pop();
    if (done.status === 0 && root) return { root };
    // The last line of a Python traceback is the error itself; the rest is noise here.
    const last = done.stderr.trim().split("\n").pop() || `exit status ${done.status}`;
    tried.push(`${python}: ${last.trim()}`);
  }
  return { tried };
}

/** The goldens/vectors folder of the suite, found as the header says, or a one-line exit 2. */
function findVectors(explicit) {
  if (explicit !== undefined) {
    const folder = join(resolve(explicit), "goldens", "vectors");
    if (!isFolder(folder)) fail(`--suite ${explicit}: no goldens/vectors folder in it; pass the suite folder `
      + "(the one holding goldens/vectors), or leave --suite out to use the installed suite");
    return folder;
  }
  const fromEnv = process.env.ORCA_CONFORMANCE_SUITE;
  if (fromEnv) {
    const folder = join(resolve(fromEnv), "goldens", "vectors");
    if (!isFolder(folder)) fail(`ORCA_CONFORMANCE_SUITE=${fromEnv}: no goldens/vectors folder in it; `
      + "set it to the suite folder (the one holding goldens/vectors), unset it to use the installed suite, "
      + "or pass --suite DIR");
    return folder;
  }
  const found = askPython();
  if (found.root !== undefined) {
    const folder = join(found.root, "goldens", "vectors");
    if (!isFolder(folder)) fail(`the installed suite is at ${found.root} but has no goldens/vectors folder; `
      + "pass --suite DIR (a suite folder, the one holding goldens/vectors)");
    return folder;
  }
  return fail("cannot find the suite's vectors: no --suite DIR, ORCA_CONFORMANCE_SUITE is not set, and "
    + `the installed Python package did not answer (${found.tried.join("; ")}); ${HOW_TO_FIX}`);
}

const args = process.argv.slice(2);
let command = [process.execPath, join(HERE, "port.mjs")];
let suite;
const families = [];
for (let k = 0; k < args.length; k += 1) {
  if (args[k] === "--port") {
    if (!args[k + 1]?.trim()) usage("--port needs a command");
    command = args[k + 1].trim().split(/\s+/);
    k += 1;
  } else if (args[k] === "--suite") {
    if (!args[k + 1]?.trim()) usage("--suite needs a folder");
    suite = args[k + 1];
    k += 1;
  } else {
    families.push(args[k]);
  }
}
if (families.length === 0) usage("name at least one vector family (the files in goldens/vectors/)");

const VECTORS = findVectors(suite);

const golden = Object.fromEntries(families.map((name) => {
  try {
    return [name, JSON.parse(readFileSync(join(VECTORS, `${name}.json`), "utf8")).cases];
  } catch (err) {
    return usage(`no vector family ${JSON.stringify(name)} in ${VECTORS} (${err.code ?? err.message})`);
  }
}));

const port = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
port.on("error", (err) => usage(`cannot start ${command[0]}: ${err.message}`));
const replies = createInterface({ input: port.stdout })[Symbol.asyncIterator]();

async function ask(request) {
  port.stdin.write(`${JSON.stringify(request)}\n`);
  const next = await replies.next();
  if (next.done) throw new Error(`the port closed its output (no reply to ${request.cmd})`);
  return JSON.parse(next.value);
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

let failed = 0;
try {
  const hello = await ask({ cmd: "hello", protocol: 1 });
  if (hello.error) throw new Error(`hello: ${hello.error}`);
  for (const name of families) {
    const cases = golden[name];
    const reply = await ask({ cmd: "vectors", family: name, cases: cases.map((c) => c.args) });
    if (reply.error !== undefined) {
      failed += 1;
      console.log(`ERROR     ${name}: ${reply.error}`);
      continue;
    }
    const results = reply.results ?? [];
    const bad = cases.flatMap((c, k) => (same(c.result, results[k]) ? [] : [k]));
    if (results.length !== cases.length || bad.length > 0) {
      failed += 1;
      const k = bad[0] ?? 0;
      console.log(`DIVERGED  ${name}: ${bad.length} of ${cases.length} cases differ; first case ${k}: `
        + `args ${JSON.stringify(cases[k].args).slice(0, 300)}, expected ${JSON.stringify(cases[k].result)}, `
        + `got ${JSON.stringify(results[k])}`);
    } else {
      console.log(`PASS      ${name}: ${cases.length} cases`);
    }
  }
  port.stdin.write(`${JSON.stringify({ cmd: "bye" })}\n`);
} catch (err) {
  failed += 1;
  console.log(`ERROR     ${err.message}`);
  port.kill();
}
port.stdin.end();
process.exitCode = failed ? 1 : 0;
