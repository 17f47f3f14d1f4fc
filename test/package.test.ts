/**
 * The package as a user gets it: `npm pack` the project, install the tarball into a fresh empty
 * folder, and run everything from there with plain `node` (no tsx, no source condition, no repo
 * files): the `openarmature` CLI over the shipped `spec/`, the `openarmature/conformance` entry,
 * every `exports` entry, the library with SQLite, a strict consumer type-check (`skipLibCheck:
 * false`) of every entry against the shipped `.d.ts`, and the README examples compiled by that
 * consumer and run. Entries come from package.json, so a new entry is checked from the tarball too.
 *
 * One pack + install is shared by every case (the `before` hook). `npm test` builds dist/ first;
 * packing skips `prepare` so it does not build twice. The install is offline-friendly
 * (`--prefer-offline`: dependencies come from the npm cache) and skips install scripts: the only one
 * that matters is better-sqlite3's native build (minutes of compiling, or a download), so the test
 * gives the fresh install this machine's already-built addon of the same better-sqlite3 version.
 */
import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/** Every code entry of package.json `exports` as a user spells it (`openarmature`, `openarmature/graph`, ...). */
const ENTRIES = Object.keys((JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports)
  .filter((k) => k !== "./package.json")
  .map((k) => (k === "." ? "openarmature" : `openarmature/${k.slice(2)}`));

/** The environment of a user's shell: none of the npm script variables `npm test` sets, no loader flags. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "NODE_OPTIONS" || (k.startsWith("npm_") && !/^npm_config_(cache|userconfig|registry)$/.test(k))) continue;
    env[k] = v;
  }
  return env;
}

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, env: userEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`\`${cmd} ${args.join(" ")}\` in ${cwd} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** ```ts blocks of README.md, in order (the same blocks test/readme.test.ts runs from the sources). */
function readmeExamples(): string[] {
  return [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

describe("package: the packed tarball installed into an empty folder", function () {
  this.timeout(180_000);
  let work = "";
  let app = "";
  let pkg = "";
  let tarball = "";

  before(function () {
    if (!existsSync(join(root, "dist", "src", "index.js"))) {
      throw new Error("dist/ is missing: run `npm run build` (npm test and npm ci do it)");
    }
    work = mkdtempSync(join(tmpdir(), "oa-package-"));
    const packed = JSON.parse(run(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", work], root)) as { filename: string }[];
    tarball = join(work, packed[0]!.filename);
    app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
    // The optional peer dependencies (the OpenTelemetry SDK), as a user of openarmature/observability
    // installs them, at the versions the tests here run against.
    const meta = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { peerDependencies?: Record<string, string>; devDependencies: Record<string, string> };
    const peers = Object.keys(meta.peerDependencies ?? {}).map((n) => `${n}@${meta.devDependencies[n]}`);
    run(npm, ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", tarball, ...peers], app);
    pkg = join(app, "node_modules", "openarmature");
    // better-sqlite3's install script, stood in for: its addon as built in this checkout (same version).
    const ours = JSON.parse(readFileSync(require.resolve("better-sqlite3/package.json"), "utf8")) as { version: string };
    const theirs = JSON.parse(readFileSync(join(app, "node_modules", "better-sqlite3", "package.json"), "utf8")) as { version: string };
    if (ours.version !== theirs.version) throw new Error(`better-sqlite3 ${theirs.version} installed, ${ours.version} built here: update the lockfile`);
    const release = join(app, "node_modules", "better-sqlite3", "build", "Release");
    mkdirSync(release, { recursive: true });
    copyFileSync(join(require.resolve("better-sqlite3/package.json"), "..", "build", "Release", "better_sqlite3.node"), join(release, "better_sqlite3.node"));
  });

  after(function () {
    if (work !== "") rmSync(work, { recursive: true, force: true });
  });

  it("ships the compiled adapter, the project's spec/ and no sources; tsx and esbuild are not installed", () => {
    expect(existsSync(join(pkg, "dist", "src", "cli", "main.js")), "compiled CLI").to.equal(true);
    expect(existsSync(join(pkg, "dist", "directives", "general")), "compiled directive bundles").to.equal(true);
    expect(existsSync(join(pkg, "dist", "harness")), "compiled harness").to.equal(true);
    expect(readdirSync(join(pkg, "spec")).sort()).to.deep.equal(readdirSync(join(root, "spec")).sort());
    for (const absent of ["src", "directives", "harness", "test", "bench", "tsconfig.json"]) expect(existsSync(join(pkg, absent)), absent).to.equal(false);
    for (const dev of ["tsx", "esbuild", "@esbuild", "typescript"]) expect(existsSync(join(app, "node_modules", dev)), dev).to.equal(false);
    // The compiled graph's runtime handle is @internal: stripped from the declarations a user sees.
    expect(readFileSync(join(pkg, "dist", "src", "graph", "compiled-graph.d.ts"), "utf8")).to.not.match(/INTERNALS|GraphRuntime\b/);
  });

  it("the installed `openarmature conform` runs the shipped spec/ by default and passes it", () => {
    const bin = join(app, "node_modules", ".bin", "openarmature");
    expect(run(bin, ["--version"], app)).to.match(/^openarmature \d+\.\d+\.\d+ \(conformance-adapter /);
    const report = join(work, "report.json");
    const out = run(bin, ["conform", "--quiet", "--json", report], app);
    expect(out).to.contain(join(pkg, "spec"));
    const { results } = JSON.parse(readFileSync(report, "utf8")) as { results: { fixture: string; status: string }[] };
    expect(results.length).to.be.greaterThan(5);
    expect(results.filter((r) => r.status !== "passed")).to.deep.equal([]);
    expect(new Set(results.map((r) => r.fixture.split("/")[0]))).to.deep.equal(new Set(readdirSync(join(root, "spec"))));
  });

  it("the installed `openarmature chat` answers piped stdin through the scripted provider when no API key is set", () => {
    const bin = join(app, "node_modules", ".bin", "openarmature");
    const env = userEnv();
    for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENARMATURE_TEST_SCRIPT"]) delete env[k];
    const r = spawnSync(bin, ["chat", "--approve-when", "^!"], { cwd: app, env, input: "hello\n!ship it\napprove\n", encoding: "utf8" });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stderr).to.include("scripted provider, offline demo");
    expect(r.stdout).to.equal('assistant> You said: hello\nassistant> Approve "!ship it"? (approve / reject)\n(waiting for approval: type \'approve\' or \'reject\')\nassistant> You said: !ship it\n');
  });

  it("plain node imports openarmature/conformance and runs a shipped fixture through it", () => {
    const script = `
      import { loadConformance, discoverFixtures, prepareFixture, runCaseToResult } from "openarmature/conformance";
      import { fileURLToPath } from "node:url";
      const spec = fileURLToPath(new URL("./spec", import.meta.resolve("openarmature/package.json")));
      const registry = await loadConformance();
      const results = [];
      for (const f of discoverFixtures([spec], { capabilities: ["graph-engine"] })) {
        const p = prepareFixture(f);
        if (p.error) throw p.error;
        for (const c of p.cases) results.push(await runCaseToResult(c, registry));
      }
      console.log(JSON.stringify({ where: import.meta.resolve("openarmature/conformance"), statuses: results.map((r) => r.status) }));
    `;
    const out = run(process.execPath, ["--input-type=module", "-e", script], app);
    const r = JSON.parse(out.trim().split("\n").pop()!) as { where: string; statuses: string[] };
    expect(r.where).to.match(/\/node_modules\/openarmature\/dist\/src\/conformance\/index\.js$/);
    expect(r.statuses.length).to.be.greaterThan(0);
    expect(r.statuses.every((s) => s === "passed")).to.equal(true);
  });

  it("plain node imports every entry of the exports map from dist/src", () => {
    const script = `
      const entries = ${JSON.stringify(ENTRIES)};
      const out = {};
      for (const e of entries) out[e] = { where: import.meta.resolve(e), names: Object.keys(await import(e)).length };
      console.log(JSON.stringify(out));
    `;
    const out = run(process.execPath, ["--input-type=module", "-e", script], app);
    const loaded = JSON.parse(out.trim().split("\n").pop()!) as Record<string, { where: string; names: number }>;
    expect(Object.keys(loaded)).to.deep.equal(ENTRIES);
    for (const [e, { where, names }] of Object.entries(loaded)) {
      expect(where, e).to.match(/\/node_modules\/openarmature\/dist\/src\/.+\.js$/);
      expect(names, e).to.be.greaterThan(0);
    }
  });

  it("without the optional peers: /observability and /langfuse throw one error naming every missing peer and the npm install command; /llm and the root load; /postgres names pg when a store opens a pool", () => {
    const bare = join(work, "bare");
    mkdirSync(bare);
    writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "bare-consumer", version: "1.0.0", private: true, type: "module" }));
    run(npm, ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", tarball], bare);
    const meta = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { peerDependenciesMeta: Record<string, { optional?: boolean }> };
    for (const peer of Object.keys(meta.peerDependenciesMeta)) expect(existsSync(join(bare, "node_modules", peer)), `${peer} must not be installed`).to.equal(false);
    const script = `
      const out = {};
      for (const e of ["openarmature", "openarmature/llm", "openarmature/postgres", "openarmature/observability", "openarmature/langfuse"]) {
        try {
          const m = await import(e);
          out[e] = { loaded: Object.keys(m).length };
          if (e === "openarmature/postgres") {
            try { new m.PostgresCheckpointer("postgres://localhost/none"); out[e].open = "opened"; }
            catch (err) { out[e].open = { name: err.name, code: err.code, message: err.message }; }
          }
        } catch (err) {
          out[e] = { name: err.name, code: err.code, message: err.message, missing: err.missing?.map((p) => p.name) };
        }
      }
      console.log(JSON.stringify(out));
    `;
    const out = run(process.execPath, ["--input-type=module", "-e", script], bare);
    const r = JSON.parse(out.trim().split("\n").pop()!) as Record<string, { loaded?: number; name?: string; code?: string; message?: string; missing?: string[]; open?: { code: string; message: string } }>;
    expect(r["openarmature"]!.loaded).to.be.greaterThan(0);
    expect(r["openarmature/llm"]!.loaded).to.be.greaterThan(0);
    expect(r["openarmature/postgres"]!.loaded).to.be.greaterThan(0);
    expect(r["openarmature/postgres"]!.open).to.deep.include({
      code: "ERR_OPENARMATURE_MISSING_PEER",
      message: "PostgresCheckpointer (openarmature/postgres) needs the optional peer dependency pg, which is not installed: run `npm install pg@^8.11.0`",
    });
    expect(r["openarmature/observability"]).to.deep.equal({
      name: "MissingPeerDependencyError",
      code: "ERR_OPENARMATURE_MISSING_PEER",
      missing: ["@opentelemetry/api", "@opentelemetry/api-logs", "@opentelemetry/sdk-trace-base"],
      message:
        "openarmature/observability needs the optional peer dependencies @opentelemetry/api, @opentelemetry/api-logs, @opentelemetry/sdk-trace-base, which are not installed: " +
        "run `npm install @opentelemetry/api@^1.9.0 @opentelemetry/api-logs@0.223.1 @opentelemetry/sdk-trace-base@^2.0.0`",
    });
    expect(r["openarmature/langfuse"]!.code).to.equal("ERR_OPENARMATURE_MISSING_PEER");
    expect(r["openarmature/langfuse"]!.missing).to.deep.equal(["@langfuse/core", "@langfuse/otel", "@langfuse/tracing", "@opentelemetry/api", "@opentelemetry/api-logs", "@opentelemetry/sdk-trace-base"]);
    expect(r["openarmature/langfuse"]!.message).to.contain(
      "run `npm install @langfuse/core@5.11.1 @langfuse/otel@5.11.1 @langfuse/tracing@5.11.1 @opentelemetry/api@^1.9.0 @opentelemetry/api-logs@0.223.1 @opentelemetry/sdk-trace-base@^2.0.0`",
    );
  });

  it("plain node runs a fan-out checkpointed to SQLite from the library entries", () => {
    const script = `
      import * as root from "openarmature";
      import { END, GraphBuilder, defineState, field, append } from "openarmature/graph";
      import { fanOut } from "openarmature/pipeline";
      import { retry } from "openarmature/middleware";
      import { SqliteCheckpointer, withCheckpointer } from "openarmature/checkpoint";
      import { SqliteSessionStore, withSessions } from "openarmature/sessions";
      import { suspend } from "openarmature/suspension";
      const Item = defineState({ x: field.int().default(0), y: field.int().default(0) });
      const double = new GraphBuilder(Item).addNode("d", async (s) => ({ y: s.x * 2 })).addEdge("d", END).setEntry("d").compile();
      const State = defineState({ xs: field.list(field.int()).default([1, 2, 3]), ys: field.list(field.int()).reducer(append).default([]) });
      const g = new GraphBuilder(State)
        .addNode("map", fanOut({ subgraph: double, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys", concurrency: 2 }), { middleware: [retry({ maxAttempts: 2 })] })
        .addEdge("map", END).setEntry("map").compile();
      const cp = new SqliteCheckpointer(":memory:");
      const r = await withCheckpointer(g, cp).invoke({});
      const saved = await cp.load(r.invocationId);
      new SqliteSessionStore(":memory:").close();
      console.log(JSON.stringify({ ys: r.state.ys, saved: saved !== undefined, where: import.meta.resolve("openarmature/graph"), fns: [typeof root.GraphBuilder, typeof withSessions, typeof suspend] }));
    `;
    const out = run(process.execPath, ["--input-type=module", "-e", script], app);
    const r = JSON.parse(out.trim().split("\n").pop()!) as { ys: number[]; saved: boolean; where: string; fns: string[] };
    expect(r.ys).to.deep.equal([2, 4, 6]);
    expect(r.saved).to.equal(true);
    expect(r.where).to.match(/\/node_modules\/openarmature\/dist\/src\/graph\/index\.js$/);
    expect(r.fns).to.deep.equal(["function", "function", "function"]);
  });

  it("the installed `openarmature agent --form` gate: an invalid form exits 1 before any provider exists; a valid one reaches the scripted provider rendered before the prompt", () => {
    const bin = join(app, "node_modules", ".bin", "openarmature");
    const dir = join(work, "agent");
    mkdirSync(dir);
    const script = join(dir, "script.yaml");
    writeFileSync(script, "responses:\n  - type: text\n    content: scripted reply\n");
    const agent = (form: string, record: string) =>
      spawnSync(bin, ["agent", "--form", form, "--provider", "scripted", "--script", script, "Summarize."], {
        cwd: app,
        env: { ...userEnv(), OPENARMATURE_TEST_RECORD: record, OPENARMATURE_TEST_SCRIPT: "" },
        encoding: "utf8",
      });
    const fields = "fields:\n  name: {type: str}\n  age: {type: int}\n";
    for (const [name, content, message] of [
      ["undeclared.yaml", `${fields}values: {name: Ada, age: 36, nickname: x}\n`, /values\.nickname is not a declared field/],
      ["uncoercible.yaml", `${fields}values: {name: Ada, age: thirty}\n`, /invalid form .*uncoercible\.yaml/],
      ["extra-key.yaml", `${fields}values: {name: Ada, age: 36}\nowner: me\n`, /unknown top-level key 'owner'/],
    ] as const) {
      writeFileSync(join(dir, name), content);
      const record = join(dir, `${name}.jsonl`);
      const r = agent(join(dir, name), record);
      expect([r.status, r.stdout], `${name}: ${r.stderr}`).to.deep.equal([1, ""]);
      expect(r.stderr, name).to.match(message);
      // The scripted provider records its construction and every call: no file, no provider, no call.
      expect(existsSync(record), `${name}: the provider was constructed`).to.equal(false);
    }
    writeFileSync(join(dir, "good.yaml"), `title: Person\n${fields}values: {name: Ada, age: "36"}\n`);
    const record = join(dir, "good.jsonl");
    const ok = agent(join(dir, "good.yaml"), record);
    expect([ok.status, ok.stdout, ok.stderr]).to.deep.equal([0, "scripted reply\n", ""]);
    const calls = readFileSync(record, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { payload?: { messages: { content: string }[] } }).filter((r) => r.payload !== undefined);
    expect(calls).to.have.length(1);
    expect(calls[0]!.payload!.messages[0]!.content).to.equal("[Work Form: Person]\n  name: 'Ada'\n  age: 36\n\nSummarize.");
  });

  it("a consumer's mocha run with --require openarmature/testing/mocha: a fresh scripted provider per test, and strict scripts fail the test that leaves them unconsumed", () => {
    const mocha = (JSON.parse(readFileSync(require.resolve("mocha/package.json"), "utf8")) as { version: string }).version;
    run(npm, ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund", `mocha@${mocha}`], app);
    const tests = join(app, "mocha-tests");
    mkdirSync(tests);
    writeFileSync(
      join(tests, "scripted.test.mjs"),
      `import assert from "node:assert/strict";
import { attachScript, calls } from "openarmature/testing";
import { currentScripted } from "openarmature/testing/mocha";
describe("with the plugin", () => {
  it("gets a scripted provider and answers from the script through the real mapping", async function () {
    assert.equal(this.scripted, currentScripted());
    attachScript(this.scripted, [{ type: "text", content: "hello from the script" }]);
    const r = await this.scripted.complete([{ role: "user", content: "hi" }]);
    assert.equal(r.message.content, "hello from the script");
    assert.equal(calls(this.scripted).length, 1);
  });
  it("gets a fresh one in the next test", function () {
    assert.equal(calls(currentScripted()).length, 0);
  });
});
`,
    );
    writeFileSync(
      join(tests, "unconsumed.spec.mjs"),
      `import { attachScript } from "openarmature/testing";
describe("strict scripts", () => {
  it("leaves a when_only entry unserved", function () {
    attachScript(this.scripted, { version: 1, mode: "when_only", responses: [{ type: "text", content: "never", when: { prompt_contains: "x" } }] });
  });
});
`,
    );
    const mochaBin = join(app, "node_modules", ".bin", "mocha");
    const passing = spawnSync(mochaBin, ["--require", "openarmature/testing/mocha", "mocha-tests/scripted.test.mjs"], { cwd: app, env: userEnv(), encoding: "utf8" });
    expect(passing.status, passing.stdout + passing.stderr).to.equal(0);
    expect(passing.stdout).to.match(/2 passing/);
    const lenient = spawnSync(mochaBin, ["--require", "openarmature/testing/mocha", "mocha-tests/unconsumed.spec.mjs"], { cwd: app, env: userEnv(), encoding: "utf8" });
    expect(lenient.status, lenient.stdout + lenient.stderr).to.equal(0);
    const strict = spawnSync(mochaBin, ["--require", "openarmature/testing/mocha", "mocha-tests/unconsumed.spec.mjs"], { cwd: app, env: { ...userEnv(), OPENARMATURE_STRICT_SCRIPTS: "1" }, encoding: "utf8" });
    expect(strict.status, strict.stdout + strict.stderr).to.equal(1);
    expect(strict.stdout).to.contain("1 unserved 'when' entry at the end of the test");
  });

  it("a strict consumer (skipLibCheck: false) type-checks against the shipped .d.ts, README examples included, and the examples run", () => {
    const src = join(app, "src");
    mkdirSync(src);
    writeFileSync(
      join(src, "consumer.ts"),
      `${ENTRIES.map((e, i) => `import * as e${i} from "${e}";`).join("\n")}
import { END, GraphBuilder, defineState, field, type CompiledGraph, type StateOf } from "openarmature/graph";
import { SqliteCheckpointer } from "openarmature/checkpoint";
import { SqliteSessionStore } from "openarmature/sessions";
const State = defineState({ n: field.int().default(0) });
const g: CompiledGraph<StateOf<typeof State>> = new GraphBuilder(State).addNode("a", async (s) => ({ n: s.n + 1 })).addEdge("a", END).setEntry("a").compile();
// @ts-expect-error — the update must match the state's types
new GraphBuilder(State).addNode("b", async () => ({ n: "one" }));
export const result = g.invoke({ n: 1 });
export const stores = [new SqliteCheckpointer(":memory:").database, new SqliteSessionStore(":memory:").database];
export const entries = [${ENTRIES.map((_, i) => `e${i}`).join(", ")}];
`,
    );
    const examples = readmeExamples();
    for (const [i, code] of examples.entries()) writeFileSync(join(src, `readme-${i + 1}.ts`), `${code}\nexport {};\n`);
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, types: ["node"], outDir: "out", rootDir: "src" },
        include: ["src"],
      }),
    );
    const tsc = require.resolve("typescript/bin/tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: app, env: userEnv(), encoding: "utf8" });
    expect(r.stdout + r.stderr, "tsc output").to.equal("");
    expect(r.status).to.equal(0);
    for (const i of examples.keys()) {
      execFileSync(process.execPath, [join(app, "out", `readme-${i + 1}.js`)], { cwd: app, env: userEnv(), encoding: "utf8" });
    }
  });
});
