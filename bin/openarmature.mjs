#!/usr/bin/env node
// The `openarmature` command. Installed, it runs the compiled adapter in dist/ with plain node. In
// the repository (a checkout holds tsconfig.json, which is never published) it runs the TypeScript
// sources through tsx, a development dependency, so an edit needs no build step.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const tsconfig = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
let main;
if (existsSync(tsconfig)) {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig });
  ({ main } = await import("../src/cli/main.ts"));
} else {
  ({ main } = await import("../dist/src/cli/main.js"));
}
process.exitCode = await main(process.argv.slice(2));
