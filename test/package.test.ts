/**
 * The package as a user installs it: plain `node` (no tsx, no source condition) imports the compiled
 * ESM in dist/ through the `exports` map and runs a graph, and a TypeScript consumer type-checks
 * against the shipped `.d.ts` files. `npm test` builds dist/ first (`npm run build`).
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("package: the compiled build a user imports", function () {
  this.timeout(60_000);

  before(function () {
    if (!existsSync(join(root, "dist", "index.js"))) {
      throw new Error("dist/ is missing: run `npm run build` (npm test and npm ci do it)");
    }
  });

  it("plain node resolves every library entry to dist/ and runs a checkpointed fan-out", () => {
    const script = `
      import * as root from "openarmature";
      import { END, GraphBuilder, defineState, field, append } from "openarmature/graph";
      import { fanOut } from "openarmature/pipeline";
      import { retry } from "openarmature/middleware";
      import { InMemoryCheckpointer, withCheckpointer } from "openarmature/checkpoint";
      import { withSessions } from "openarmature/sessions";
      import { suspend } from "openarmature/suspension";
      const Item = defineState({ x: field.int().default(0), y: field.int().default(0) });
      const double = new GraphBuilder(Item).addNode("d", async (s) => ({ y: s.x * 2 })).addEdge("d", END).setEntry("d").compile();
      const State = defineState({ xs: field.list(field.int()).default([1, 2, 3]), ys: field.list(field.int()).reducer(append).default([]) });
      const g = new GraphBuilder(State)
        .addNode("map", fanOut({ subgraph: double, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys", concurrency: 2 }), { middleware: [retry({ maxAttempts: 2 })] })
        .addEdge("map", END).setEntry("map").compile();
      const r = await withCheckpointer(g, new InMemoryCheckpointer()).invoke({});
      const where = import.meta.resolve("openarmature/graph");
      console.log(JSON.stringify({ ys: r.state.ys, where, fns: [typeof root.GraphBuilder, typeof withSessions, typeof suspend] }));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, env: { ...process.env, NODE_OPTIONS: "" }, encoding: "utf8" });
    const r = JSON.parse(out.trim().split("\n").pop()!) as { ys: number[]; where: string; fns: string[] };
    expect(r.ys).to.deep.equal([2, 4, 6]);
    expect(r.where).to.match(/\/dist\/graph\/index\.js$/);
    expect(r.fns).to.deep.equal(["function", "function", "function"]);
  });

  it("a TypeScript consumer type-checks against the shipped declarations", () => {
    const dir = join(root, ".oa-tmp", "consumer");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "index.ts"),
      `import { END, GraphBuilder, defineState, field, type CompiledGraph } from "openarmature/graph";
const State = defineState({ n: field.int().default(0) });
const g: CompiledGraph<{ n: number }> = new GraphBuilder(State).addNode("a", async (s) => ({ n: s.n + 1 })).addEdge("a", END).setEntry("a").compile();
// @ts-expect-error — the update must match the state's types
new GraphBuilder(State).addNode("b", async () => ({ n: "one" }));
export const result = g.invoke({ n: 1 });
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] }, files: ["index.ts"] }),
    );
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    try {
      execFileSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { cwd: root, encoding: "utf8" });
    } catch (e) {
      throw new Error(`the consumer does not type-check:\n${(e as { stdout?: string }).stdout ?? String(e)}`);
    }
  });
});
