/**
 * `openarmature directives` and docs/vocabulary.md: the listing comes from the registry the run
 * uses, the checked-in document is current, and the inventory's statuses are computed (a row the
 * registry does not recognize cannot read "implemented").
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DirectiveRegistry, directiveDecorator } from "../../src/conformance/registry.ts";
import { describeSchema, displayPattern, sectionRefs, vocabulary, type VocabularyEntry } from "../../src/conformance/vocabulary.ts";
import { inventory, schemaNamesKey } from "../../src/cli/vocabulary-doc.ts";
import { SEED_ROWS } from "../../src/cli/seed-vocabulary.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ["bin/openarmature.mjs", "directives", ...args], { cwd: PROJECT, timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === "number" ? err.code : -1, stdout, stderr });
    });
  });
}

describe("openarmature directives (the CLI, as a child process)", function () {
  this.timeout(60_000);
  let json: ReturnType<typeof cli>;
  let markdown: ReturnType<typeof cli>;
  before(() => {
    json = cli("--json");
    markdown = cli("--markdown");
  });

  it("--json lists every directive with name, positions, home, sections and forms", async () => {
    const r = await json;
    expect(r.code, r.stderr).to.equal(0);
    const entries = JSON.parse(r.stdout) as VocabularyEntry[];
    expect(entries.length).to.be.greaterThan(200);
    const finalState = entries.find((e) => e.name === "final_state" && e.home === "general");
    expect(finalState).to.deep.include({ pattern: null, positions: ["expected"], forms: "mapping", kind: "check", source: "directives/general/final-state.ts" });
    expect(finalState!.sections).to.include("conformance-adapter §5.8");
    const family = entries.find((e) => e.name === "<node>_node_events_count");
    expect(family).to.deep.include({ pattern: "(?<node>.+)_node_events_count", positions: ["invariant"], home: "general" });
    const homes = new Set(entries.map((e) => e.home));
    expect([...homes]).to.include.members(["general", "graph-engine", "pipeline-utilities", "sessions", "suspension"]);
  });

  it("docs/vocabulary.md is current (regenerate: node bin/openarmature.mjs directives --markdown > docs/vocabulary.md)", async () => {
    const r = await markdown;
    expect(r.code, r.stderr).to.equal(0);
    const checkedIn = readFileSync(new URL("../../docs/vocabulary.md", import.meta.url), "utf8");
    expect(checkedIn === r.stdout, "docs/vocabulary.md is stale: regenerate it with the command in this test's title").to.equal(true);
  });

  it("the plain listing ends with the inventory counts, overall and per capability directory; --inventory --json has the rows", async () => {
    const r = await cli();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/seed §5 inventory \(docs\/vocabulary\.md\): \d+ rows — implemented \d+, partly \d+, not yet \d+/);
    expect(r.stdout).to.not.match(/waits? for|wait for nothing/);
    const inv = await cli("--inventory", "--json");
    expect(inv.code, inv.stderr).to.equal(0);
    const rec = JSON.parse(inv.stdout) as {
      byCapability: Record<string, { rows: number; implemented: number; partly: number; "not yet": number }>;
      rows: Array<{ name: string; status: string; note: string; positions: string[]; home: string }>;
    };
    // Every capability directory the registry knows, each line matching its JSON counts.
    expect(Object.keys(rec.byCapability)).to.include.members(["graph-engine", "pipeline-utilities", "suspension", "sessions", "observability", "llm-provider", "retrieval-provider", "prompt-management", "harness", "harness-chat"]);
    for (const [c, n] of Object.entries(rec.byCapability)) {
      expect(n.implemented + n.partly + n["not yet"], c).to.equal(n.rows);
      expect(r.stdout).to.contain(`  ${c}: ${n.rows} rows — implemented ${n.implemented}, partly ${n.partly}, not yet ${n["not yet"]}`);
    }
    const row = (name: string) => rec.rows.find((x) => x.name === name)!;
    expect(row("final_state").status).to.equal("implemented");
    // Statuses come from the registry, never from "waits for" text: what exists is implemented.
    for (const name of ["contains_event", "event_count", "span_tree", "metrics", "calls_llm", "caller_metadata", "dispatch_path", "tei_embedding_provider.chunk_size", "calls_llm (content_repeat, base64_data_synthetic)"]) {
      expect(row(name), name).to.deep.include({ status: "implemented" });
    }
    expect(row("contains_event").positions).to.deep.equal(["collector"]);
    // §5 directives are general: recognized in every directory.
    for (const name of ["mock_provider", "wire_requests", "calls_embed", "calls_rerank", "mock_embedding", "mock_rerank", "no_embed_request_issued", "cohere_rerank_provider"]) {
      expect(row(name), name).to.deep.include({ status: "implemented", note: "" });
    }
    // A directory note's row is judged in its home.
    expect(row("expected_listener_callback")).to.deep.include({ status: "implemented", home: "harness-chat" });
    expect(row("update_pure_from_state")).to.deep.include({ status: "implemented", home: "observability" });
  });

  it("the plain listing groups by home; an unknown --home is a usage error with a suggestion", async () => {
    const r = await cli("--home", "suspension");
    expect(r.code).to.equal(0);
    expect(r.stdout).to.match(/^suspension \(\d+ directives\)/);
    expect(r.stdout).to.not.contain("general (");
    const bad = await cli("--home", "sesions");
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain("--home 'sesions' is no definition home (did you mean 'sessions'?)");
  });
});

describe("vocabulary model", () => {
  it("describes schemas as value forms", () => {
    expect(describeSchema(undefined)).to.equal("any");
    expect(describeSchema({ type: "boolean" })).to.equal("boolean");
    expect(describeSchema({ type: "integer", minimum: 0 })).to.equal("integer ≥ 0");
    expect(describeSchema({ type: ["object", "null"] })).to.equal("mapping | null");
    expect(describeSchema({ type: "object", required: ["a"], additionalProperties: false, properties: { a: {}, b: {} } })).to.equal("mapping {a, b?}");
    expect(describeSchema({ type: "object", properties: { a: {} } })).to.equal("mapping {a?, ...}");
    expect(describeSchema({ type: "array", items: { type: "string" } })).to.equal("list of string");
    expect(describeSchema({ oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] })).to.equal("string | list of string");
    expect(describeSchema({ enum: ["a", "b"] })).to.equal('"a" | "b"');
  });

  it("shows pattern families in the spec's <placeholder> notation", () => {
    expect(displayPattern(/(?<node>.+)_node_events_count/)).to.equal("<node>_node_events_count");
    expect(displayPattern(/invoke(?:_with)?/)).to.equal("invoke[_with]");
    expect(displayPattern(/session_store_(?<op>load|save)_calls/)).to.equal("session_store_<op>_calls");
    expect(displayPattern(/instance_(?<index>\d+)_resume_attempt_count/)).to.equal("instance_<index>_resume_attempt_count");
  });

  it("qualifies § references by the last document named", () => {
    expect(sectionRefs("`x:` (conformance-adapter §5.5, §6.1; graph-engine §6)", "general")).to.deep.equal([
      "conformance-adapter §5.5",
      "conformance-adapter §6.1",
      "graph-engine §6",
    ]);
    expect(sectionRefs("the §10.2 field", "pipeline-utilities")).to.deep.equal(["pipeline-utilities §10.2"]);
  });

  it("finds a sub-key anywhere in a schema", () => {
    const schema = { type: "array", items: { type: "object", properties: { condition: { type: "object", properties: { if_field: {} } } } } };
    expect(schemaNamesKey(schema, "if_field")).to.equal(true);
    expect(schemaNamesKey(schema, "else")).to.equal(false);
    expect(schemaNamesKey({ enum: ["else"] }, "else")).to.equal(false);
  });

  it("computes each seed row's status from the registry it is given", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: "final_state", at: "expected", home: "general" })
    class FinalState {
      check(): void {}
    }
    @directive({ name: "state", at: ["case", "subgraph"], home: "general" })
    class State {
      readonly schema = { type: "object", additionalProperties: false, properties: { fields: {} } };
      configure(): void {}
    }
    @directive({ name: "execution_order", at: "expected", home: "pipeline-utilities" })
    class LocalOrder {
      check(): void {}
    }
    @directive({ name: "outcome", at: "expected", home: "general" })
    class Outcome {
      readonly schema = { enum: ["completed", "errored"] };
      check(): void {}
    }
    void [FinalState, State, LocalOrder, Outcome];
    const rows = new Map(inventory(reg).map((r) => [r.row.name, r]));
    expect(rows.size).to.equal(new Set(SEED_ROWS.map((r) => r.name)).size);
    expect(rows.get("final_state")).to.deep.include({ status: "implemented", note: "" });
    expect(rows.get("outcome")!.status).to.equal("partly"); // a form §5 writes that the schema rejects
    expect(rows.get("outcome")!.note).to.contain('rejects the form "suspended"');
    expect(rows.get("error")).to.deep.include({ status: "not yet", note: "missing" });
    expect(rows.get("calls_llm")).to.deep.include({ status: "not yet", note: "missing" }); // no "waits for": only the registry decides
    expect(rows.get("execution_order")!.status).to.equal("partly"); // a §5 directive known only in one directory
    expect(rows.get("execution_order")!.note).to.contain("recognized only under pipeline-utilities");
    expect(rows.get("state.fields")!.status).to.equal("implemented");
    expect(rows.get("state.default")).to.deep.include({ status: "not yet", note: "'state' rejects the sub-key 'default'" });
    expect(rows.get("state")!.status).to.equal("partly"); // a form §5 writes (state.records) this schema rejects
    expect(rows.get("state")!.note).to.contain("rejects the form");
    // Per capability: what a fixture under that directory gets.
    const pu = new Map(inventory(reg, "pipeline-utilities").map((r) => [r.row.name, r]));
    const ge = new Map(inventory(reg, "graph-engine").map((r) => [r.row.name, r]));
    expect(pu.get("execution_order")!.status).to.equal("partly"); // a §5 directive only this directory defines
    expect(ge.get("execution_order")).to.deep.include({ status: "not yet", note: "missing" });
    expect(ge.get("final_state")).to.deep.include({ status: "implemented" });
    expect(ge.get("calls_llm")).to.deep.include({ status: "not yet", note: "missing" }); // a §5 row applies to every directory
    expect(ge.has("every_save_assertions")).to.equal(false); // pipeline-utilities' note
    expect(pu.has("every_save_assertions")).to.equal(true);
    const real = vocabulary(reg, PROJECT);
    expect(real.map((e) => [e.name, e.positions])).to.deep.equal([
      ["final_state", ["expected"]], // general first, by name; then each directory
      ["outcome", ["expected"]],
      ["state", ["case", "subgraph"]],
      ["execution_order", ["expected"]],
    ]);
  });
});
