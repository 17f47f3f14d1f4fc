#!/usr/bin/env node
// The `openarmature` command. The conformance adapter runs from the TypeScript sources; tsx compiles
// them on load (the library entries are also built to dist/ for users).
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
