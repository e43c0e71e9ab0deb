#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// A per-family self-check for a port under construction: sends the cases of
// goldens/vectors/<family>.json to a port over the protocol and compares its results with the
// stored ones, value for value, as the suite's vectors row does. It is a quick answer to "is
// this family done?"; the gate is still `orca-conformance matrix`.
//
//   node runners/skeleton-js/check-vectors.mjs FAMILY [FAMILY ...] [--port 'COMMAND WORDS']
//
// The port command defaults to this folder's skeleton (`node port.mjs`); other ports are given
// as words split at spaces (no quoting). Exit status 0 when every family passes, 1 otherwise,
// 2 for bad usage.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const GOLDENS = join(HERE, "..", "..", "goldens", "vectors");

function usage(message) {
  process.stderr.write(`check-vectors: ${message}\nusage: node check-vectors.mjs FAMILY [FAMILY ...] [--port 'COMMAND']\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let command = [process.execPath, join(HERE, "port.mjs")];
const families = [];
for (let k = 0; k < args.length; k += 1) {
  if (args[k] === "--port") {
    if (!args[k + 1]?.trim()) usage("--port needs a command");
    command = args[k + 1].trim().split(/\s+/);
    k += 1;
  } else {
    families.push(args[k]);
  }
}
if (families.length === 0) usage("name at least one vector family (the files in goldens/vectors/)");

const golden = Object.fromEntries(families.map((name) => {
  try {
    return [name, JSON.parse(readFileSync(join(GOLDENS, `${name}.json`), "utf8")).cases];
  } catch (err) {
    return usage(`no vector family ${JSON.stringify(name)} (${err.code ?? err.message})`);
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
