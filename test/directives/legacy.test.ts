/**
 * The legacy bundle (issue 14): the 0.109 vocabulary conformance-adapter 0.120.1 retires — each
 * checked through its replacement (valid / invalid pairs: a wrong observation fails), each use
 * counted as a deprecation, and each refused under the strict vocabulary with
 * fixture_directive_unknown naming the replacement.
 */
import { expect } from "chai";
import { loadConformance } from "../../src/conformance/setup.ts";
import { runCaseToResult, type CaseResult } from "../../src/conformance/run.ts";
import { formatDeprecations, formatSummary, summarizeDeprecations } from "../../src/conformance/report.ts";
import { strictVocabularyFromEnv } from "../../src/conformance/deprecation.ts";
import { casesOf } from "../conformance/helpers.ts";
import { directiveTester, linear } from "./tester.ts";

const COLLECTORS = `typed_observers:
  - {name: all, kind: typed_event_collector}`;
const collector = (body: string): string => linear(`observers:\n  all:\n    ${body}`, COLLECTORS);

directiveTester("does_not_contain_event_of_type (legacy)", {
  template: collector,
  valid: ["does_not_contain_event_of_type: LlmCompletionEvent"],
  invalid: [{ code: "does_not_contain_event_of_type: NodeEvent", message: "retained 6 NodeEvent (expected 0" }],
});

directiveTester("contains_exactly_n_events_of_type (legacy)", {
  template: collector,
  valid: ["contains_exactly_n_events_of_type: {event_type: NodeEvent, count: 6}", "contains_exactly_n_events_of_type: {event_type: NodeEvent, n: 6}"],
  invalid: [
    { code: "contains_exactly_n_events_of_type: {event_type: NodeEvent, count: 5}", message: "retained 6 NodeEvent (expected 5" },
    { code: "contains_exactly_n_events_of_type: {event_type: NodeEvent, n: 7}", message: "retained 6 NodeEvent (expected 7" },
    // neither n nor count: nothing to compare with, so the value is malformed (not "count 0").
    { code: "contains_exactly_n_events_of_type: {event_type: NodeEvent}", category: "fixture_schema_invalid", message: "contains_exactly_n_events_of_type" },
  ],
});

const root = (bStatus = "OK") => `name: openarmature.invocation
status: OK
children:
  - {name: a, status: OK}
  - {name: b, status: ${bStatus}}
  - {name: c, status: OK}`;
const nest = (text: string, n: number): string => text.split("\n").map((l) => " ".repeat(n) + l).join("\n");

directiveTester("parent_trace (legacy)", {
  template: (b) => linear(b),
  capability: "observability",
  valid: [`parent_trace:\n  span_tree:\n${nest(`- ${nest(root(), 2).trimStart()}`, 4)}`],
  invalid: [{ code: `parent_trace:\n  span_tree:\n${nest(`- ${nest(root("ERROR"), 2).trimStart()}`, 4)}`, message: "status" }],
});

const OTEL_OBSERVER = "observers:\n  - {name: tracer, behavior: otel}";
directiveTester("otel_spans + observer behavior otel (legacy)", {
  template: (b) => linear(b, OTEL_OBSERVER),
  capability: "graph-engine",
  valid: [`otel_spans:\n  tracer:\n${nest(root(), 4)}`],
  invalid: [
    { code: `otel_spans:\n  tracer:\n${nest(root("ERROR"), 4)}`, message: ["expected.otel_spans.tracer", "status"] },
    // children are complete, as in span_tree: a missing node span fails.
    { code: `otel_spans:\n  tracer:\n${nest(root().replace("  - {name: c, status: OK}", ""), 4)}`, message: "expected.otel_spans.tracer" },
    { code: `otel_spans:\n  nobody:\n${nest(root(), 4)}`, message: "no observers: entry declares with behavior: otel (declared: tracer)" },
  ],
});

const USES = linear(
  `otel_spans:\n  tracer:\n${nest(root(), 4)}\nobservers:\n  all:\n    does_not_contain_event_of_type: LlmCompletionEvent\n    contains_exactly_n_events_of_type: {event_type: NodeEvent, count: 6}`,
  `${OTEL_OBSERVER}\n${COLLECTORS}`,
);

async function run(text: string, strictVocabulary: boolean): Promise<CaseResult> {
  const registry = await loadConformance();
  const [c] = casesOf(text, "graph-engine");
  return runCaseToResult(c!, registry, { strictVocabulary, caseTimeoutMs: 20_000 });
}

describe("legacy vocabulary: deprecations and --strict-vocabulary", function () {
  this.timeout(30_000);

  it("counts each use once, with its replacement and location, and still checks it", async () => {
    const r = await run(USES, false);
    expect(r.status, `${r.category}: ${r.message}`).to.equal("passed");
    expect(r.deprecations.map((d) => d.directive)).to.deep.equal([
      "observers[].behavior: otel",
      "otel_spans",
      "does_not_contain_event_of_type",
      "contains_exactly_n_events_of_type",
    ]);
    const otel = r.deprecations.find((d) => d.directive === "otel_spans")!;
    expect(otel.replacement).to.contain("span_tree");
    expect(otel.section).to.equal("conformance-adapter 0.120.1 §5.8");
    expect(otel.location).to.match(/900-test\.yaml:\d+:\d+ \(expected\.otel_spans\)/);
  });

  it("the summary table gains a deprecated column and the block says how many and where", async () => {
    const used = await run(USES, false);
    const clean = await run(linear("final_state: {v: 3, log: [a, b, c]}"), false);
    expect(formatSummary([clean])).to.not.contain("deprecated");
    const table = formatSummary([used, clean]);
    expect(table.split("\n")[0]).to.match(/skipped\s+deprecated\s+seconds/);
    expect(table).to.match(/total\s+2\s+0\s+0\s+4\s/);
    const block = formatDeprecations([used, used]);
    expect(block).to.contain("8 uses of vocabulary the 0.120.1 seed retires or never defined");
    expect(block).to.contain("otel_spans ×2 → span_tree");
    expect(block).to.contain("at graph-engine/900-test.yaml:");
    expect(summarizeDeprecations([used]).map((d) => d.count)).to.deep.equal([1, 1, 1, 1]);
    expect(formatDeprecations([clean])).to.equal("");
  });

  it("strict: every retired key is fixture_directive_unknown naming its replacement", async () => {
    const r = await run(USES, true);
    expect(r.status).to.equal("failed");
    expect(r.category).to.equal("fixture_directive_unknown");
    expect(r.message).to.contain("no directive 'observers[].behavior: otel' is recognized at position 'case': retired by conformance-adapter 0.120.1 §5.5");
    expect(r.message).to.contain("'otel_spans' at position 'expected': retired by conformance-adapter 0.120.1 §5.8");
    expect(r.message).to.contain("write span_tree: [<root span entry>] instead");
    expect(r.message).to.contain("'does_not_contain_event_of_type'");
    expect(r.message).to.contain("write event_count: {event_type: <T>, count: 0} instead");
    expect(r.message).to.contain("'contains_exactly_n_events_of_type'");
    expect(r.message).to.contain("'observers[].behavior: otel'");
    expect(r.deprecations).to.deep.equal([]);
  });

  it("strict: the observer behavior otel is refused, naming the replacement", async () => {
    const r = await run(linear("final_state: {v: 3, log: [a, b, c]}", OTEL_OBSERVER), true);
    expect(r.category, r.message ?? "").to.equal("fixture_directive_unknown");
    expect(r.message).to.contain("'observers[].behavior: otel'");
    expect(r.message).to.contain("span_tree / traces compose the §6.3 OTel capture");
    expect(r.message).to.contain("(observers[0].behavior)");
  });

  it("strict mode leaves the 0.120.1 vocabulary alone", async () => {
    const r = await run(linear("final_state: {v: 3, log: [a, b, c]}"), true);
    expect(r.status, r.message ?? "").to.equal("passed");
  });

  it("$OA_STRICT_VOCABULARY switches the mocha runner", () => {
    expect(strictVocabularyFromEnv({ OA_STRICT_VOCABULARY: "1" })).to.equal(true);
    expect(strictVocabularyFromEnv({ OA_STRICT_VOCABULARY: "true" })).to.equal(true);
    expect(strictVocabularyFromEnv({ OA_STRICT_VOCABULARY: "0" })).to.equal(false);
    expect(strictVocabularyFromEnv({})).to.equal(false);
  });
});

describe("legacy vocabulary: type str (sessions 004 / 006 / 010 / 011), decided once for every directory", function () {
  this.timeout(30_000);
  const STR_STATE = `
state:
  fields:
    name: {type: str, default: ""}
    tags: {type: list<str>, reducer: append, default: []}
    byName: {type: "dict<str,int>", default: {}}
entry: a
nodes:
  a: {update: {name: x, tags: [t], byName: {x: 1}}}
edges:
  - {from: a, to: END}
initial_state: {}
expected:
  final_state: {name: x, tags: [t], byName: {x: 1}}
`;

  for (const dir of ["graph-engine", "sessions", "observability"]) {
    it(`${dir}: read as string and counted, at each type's own line`, async () => {
      const registry = await loadConformance();
      const [c] = casesOf(STR_STATE, dir);
      const r = await runCaseToResult(c!, registry, { caseTimeoutMs: 20_000 });
      expect(r.status, `${r.category}: ${r.message}`).to.equal("passed");
      expect(r.deprecations.map((d) => [d.directive, d.replacement])).to.deep.equal([
        ["type: str", "string"],
        ["type: str", "string"],
        ["type: str", "string"],
      ]);
      expect(r.deprecations[1]!.location).to.match(/:5:\d+ \(state\.fields\.tags\.type\)$/);
    });
  }

  it("a str value is still checked as a string (a number is refused)", async () => {
    const registry = await loadConformance();
    const [c] = casesOf(STR_STATE.replace("update: {name: x,", "update: {name: 3,").replace("final_state: {name: x,", "final_state: {name: 3,"), "sessions");
    const r = await runCaseToResult(c!, registry, { caseTimeoutMs: 20_000 });
    expect(r.status).to.equal("failed");
    expect(r.message).to.contain("state_validation_error");
    expect(r.message).to.contain("/name must be string");
  });

  it("strict: refused as fixture_directive_unknown, naming string and saying no version defines str (graph-engine and sessions alike)", async () => {
    const registry = await loadConformance();
    const [g] = casesOf(STR_STATE, "graph-engine");
    const rg = await runCaseToResult(g!, registry, { strictVocabulary: true, caseTimeoutMs: 20_000 });
    expect(rg.category, rg.message ?? "").to.equal("fixture_directive_unknown");
    expect(rg.message).to.contain("write string instead");
    const [c] = casesOf(STR_STATE, "sessions");
    const r = await runCaseToResult(c!, registry, { strictVocabulary: true, caseTimeoutMs: 20_000 });
    expect(r.category, r.message ?? "").to.equal("fixture_directive_unknown");
    expect(r.message).to.contain("no directive 'type: str' is recognized at position 'case': not defined by conformance-adapter 0.120.1 §5.2 (primitives: string, int, float, bool, any), refused under --strict-vocabulary; write string instead");
  });
});
