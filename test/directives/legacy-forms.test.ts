/**
 * Older forms the corpus still writes (issue 31 item 3), read through the legacy bundle when their
 * meaning is unambiguous: each case passes with its use counted as a deprecation at the form's own
 * location, a wrong observation still fails, and under --strict-vocabulary the key is refused as
 * fixture_directive_unknown naming the replacement.
 */
import { expect } from "chai";
import { loadConformance } from "../../src/conformance/setup.ts";
import { runCaseToResult, type CaseResult } from "../../src/conformance/run.ts";
import { casesOf } from "../conformance/helpers.ts";

async function run(text: string, capability: string, strictVocabulary = false): Promise<CaseResult> {
  const registry = await loadConformance();
  const [c] = casesOf(text, capability);
  return runCaseToResult(c!, registry, { strictVocabulary, caseTimeoutMs: 20_000 });
}

const SUBS = `subgraphs:
  fast: {state: {fields: {v: {type: int, default: 0}}}, entry: s, nodes: {s: {update_pure: {v: 1}}}, edges: [{from: s, to: END}]}
  slow: {state: {fields: {v: {type: int, default: 0}}}, entry: s, nodes: {s: {update_pure: {v: 1}}}, edges: [{from: s, to: END}]}`;

const STATE = "{fields: {v: {type: int, default: 0}, done: {type: bool, default: false}}}";
const graph = (node: string, expected: string, extra = "", state = STATE) => `
${SUBS}
state: ${state}
entry: a
nodes:
  a:
${node}
edges: [{from: a, to: END}]
initial_state: {}
${extra}
expected:
${expected}
`;

const FAN_STATE = "{fields: {v: {type: int, default: 0}, done: {type: bool, default: false}, vs: {type: list<int>, reducer: append, default: []}}}";

/**
 * Branches over inner_subgraphs that declare no state: each runs against its own schema, which
 * declares no field, so nothing it writes reaches the parent (no outputs, §11.4).
 */
const INNER = (expected: string) => `
state: {fields: {v: {type: int, default: 0}, done: {type: bool, default: false}}}
entry: a
nodes:
  a:
    parallel_branches:
      branches:
        p: {subgraph: p}
        q: {subgraph: q}
inner_subgraphs:
  p: {entry: s, nodes: {s: {update_pure: {flag: true, other: 1}}}, edges: [{from: s, to: END}]}
  q: {entry: s, nodes: {s: {update_pure: {v: 5}}}, edges: [{from: s, to: END}]}
edges: [{from: a, to: END}]
initial_state: {}
expected:
${expected}
`;

/** Metadata augmentation written on a branch / fan-out entry; each branch or instance reads its metadata back. */
const CAPTURE_SUBS = `subgraphs:
  p: {state: {fields: {m: {type: dict, default: {}}}}, entry: s, nodes: {s: {capture_invocation_metadata_into: m}}, edges: [{from: s, to: END}]}
  q: {state: {fields: {m: {type: dict, default: {}}}}, entry: s, nodes: {s: {capture_invocation_metadata_into: m}}, edges: [{from: s, to: END}]}`;
const AUGMENTED = (node: string, expected: string) => `
${CAPTURE_SUBS}
state: {fields: {pm: {type: dict, default: {}}, qm: {type: dict, default: {}}, ms: {type: list<dict>, reducer: append, default: []}, after: {type: dict, default: {}}}}
entry: a
nodes:
  a:
${node}
  b: {capture_invocation_metadata_into: after}
edges: [{from: a, to: b}, {from: b, to: END}]
initial_state: {}
caller_metadata: {t: T}
expected:
  final_state:
${expected}
`;
const BRANCHES = "    parallel_branches:\n      branches:\n        p: {subgraph: p, outputs: {pm: m}, augment_metadata: {k: p}}\n        q: {subgraph: q, outputs: {qm: m}}";
const INSTANCES = "    fan_out: {subgraph: p, count: 2, collect_field: m, target_field: ms, augment_metadata: {k: i}}";

/** a → b when v equals 1, else END (the static edge from a). */
const WHEN = (v1: boolean, expected: string) => `
state: {fields: {v: {type: int, default: 0}}}
entry: s
nodes:
  s: {update_pure: {v: ${v1 ? 1 : 2}}}
  a: {update_pure: {}}
  b: {update_pure: {}}
edges:
  - {from: s, to: a}
  - {from: a, when: {field: v, equals: 1}, to: b}
  - {from: a, to: END}
  - {from: b, to: END}
initial_state: {}
expected:
${expected.replace("[a, b]", "[s, a, b]")}
`;

/** One embedding call bound to model `bound-embed-model`; the typed event names the model `expected`. */
const EMBED = (expected: string) => `
state: {fields: {r: {type: record, default: null}}}
entry: e
nodes:
  e: {calls_embed: {input: [q], model: bound-embed-model, stores_response_in: r}}
edges: [{from: e, to: END}]
initial_state: {}
mock_embedding:
  - status: 200
    body: {object: list, model: text-embedding-test, data: [{object: embedding, index: 0, embedding: [0.1]}], usage: {prompt_tokens: 1, total_tokens: 1}}
typed_observers:
  - {name: c, kind: typed_event_collector}
expected:
  observers:
    c:
      contains_event: {event_type: EmbeddingEvent, fields: {model: ${expected}}}
`;

/** A fan-out whose instances never reach the suspending index: each runs on_other_indices. */
const OTHER_INDICES = (results: string) => `
subgraphs:
  leaf:
    state: {fields: {x: {type: int, default: 0}, y: {type: int, default: 0}}}
    entry: work
    nodes:
      work:
        conditional_suspend: {suspend_on_item_index: 7, descriptor: {signal_id: s}}
        on_other_indices: {update_from_field: {y: x, multiplier: 10}}
    edges: [{from: work, to: END}]
state: {fields: {items: {type: list<int>, default: []}, results: {type: list<int>, reducer: append, default: []}}}
entry: spread
nodes:
  spread: {fan_out: {subgraph: leaf, items_field: items, item_field: x, collect_field: y, target_field: results}}
edges: [{from: spread, to: END}]
initial_state: {items: [1, 2, 3]}
expected:
  final_state: {items: [1, 2, 3], results: ${results}}
`;

interface FormCase {
  readonly name: string;
  readonly capability: string;
  readonly text: string;
  /** The same fixture with a wrong expectation (the form is still checked). */
  readonly wrong?: string;
  readonly form: string;
  readonly location: RegExp;
  readonly replacement: string;
  /** What a strict run names first, when it is another form the fixture also uses. */
  readonly strict?: readonly string[];
}

const FORMS: FormCase[] = [
  {
    name: "parallel_branches.branches as a list (observability 048, 055)",
    capability: "observability",
    text: graph("    parallel_branches: {branches: [fast, slow]}", "  execution_order: [a]\n  final_state: {v: 1, done: false}"),
    wrong: graph("    parallel_branches: {branches: [fast, slow]}", "  final_state: {v: 2, done: false}"),
    form: "parallel_branches.branches as a list",
    location: /\(nodes\.a\.parallel_branches\.branches\)$/,
    replacement: "branches: {<name>: {subgraph: <name>}}",
  },
  {
    name: "typed_observers[].retains_arrival_order (observability 056)",
    capability: "observability",
    text: graph("    update: {v: 1}", "  observers:\n    c:\n      event_count: {event_type: NodeEvent, count: 2}", "typed_observers:\n  - {name: c, kind: typed_event_collector, retains_arrival_order: true}"),
    wrong: graph("    update: {v: 1}", "  observers:\n    c:\n      event_count: {event_type: NodeEvent, count: 3}", "typed_observers:\n  - {name: c, kind: typed_event_collector, retains_arrival_order: true}"),
    form: "typed_observers[].retains_arrival_order",
    location: /\(typed_observers\[0\]\.retains_arrival_order\)$/,
    replacement: "nothing (drop it)",
  },
  {
    name: "an observer event's error as a bare category (§5.8 writes {category})",
    capability: "graph-engine",
    text: graph("    raises: boom", "  outcome: errored\n  observer_events:\n    rec:\n      - {phase: started, node_name: a}\n      - {phase: completed, node_name: a, error: node_exception}", "observers:\n  - {name: rec, behavior: record}"),
    wrong: graph("    raises: boom", "  outcome: errored\n  observer_events:\n    rec:\n      - {phase: started, node_name: a}\n      - {phase: completed, node_name: a, error: reducer_error}", "observers:\n  - {name: rec, behavior: record}"),
    form: "observer_events[].error: <category>",
    location: /\(expected\.observer_events\.rec\[1\]\.error\)$/,
    replacement: "error: {category: <id>}",
  },
  {
    name: "invocations: <int> (observability 009, 011): N calls, the case-level expected reading each",
    capability: "observability",
    text: graph("    update: {v: 1}", "  final_state: {v: 1, done: false}", "invocations: 2"),
    wrong: graph("    update: {v: 1}", "  final_state: {v: 2, done: false}", "invocations: 2"),
    form: "invocations: <int>",
    location: /\(invocations\)$/,
    replacement: "invocations: [{name: ...}, ...] (one entry per call)",
  },
  {
    name: "a top-level informative: true (observability 048)",
    capability: "observability",
    text: graph("    update: {v: 1}", "  final_state: {v: 1, done: false}", "informative: true"),
    form: "informative",
    location: /\(informative\)$/,
    replacement: "nothing (drop it; a comment says what it meant)",
  },
  {
    name: "node-level middleware outside pipeline-utilities, with classifier {transient_categories} (observability 007, 119)",
    capability: "observability",
    text: graph(
      "    flaky: {failure_sequence: [{category: provider_rate_limit}], success_update: {done: true}}\n    middleware:\n      - type: retry\n        max_attempts: 2\n        backoff: {type: deterministic, seconds: 0}\n        classifier: {transient_categories: [provider_rate_limit]}",
      "  final_state: {v: 0, done: true}",
    ),
    wrong: graph(
      "    flaky: {failure_sequence: [{category: provider_rate_limit}], success_update: {done: true}}\n    middleware:\n      - type: retry\n        max_attempts: 2\n        backoff: {type: deterministic, seconds: 0}\n        classifier: {transient_categories: [provider_timeout]}",
      "  final_state: {v: 0, done: true}",
    ),
    form: "middleware",
    location: /\(nodes\.a\.middleware\)$/,
    replacement: "wrap_with_middleware (§5.1), or a pipeline-utilities fixture",
    // the classifier form inside the value is refused first (the value is rewritten before the key is looked up).
    strict: ["'classifier: {transient_categories}'", "write classifier: {type: category_set, categories: [...]} instead"],
  },
  {
    name: "inner_subgraphs, a body without state (observability 048, 055)",
    capability: "observability",
    text: INNER("  final_state: {v: 0, done: false}"),
    wrong: INNER("  final_state: {v: 5, done: false}"),
    form: "inner_subgraphs",
    location: /\(inner_subgraphs\)$/,
    replacement: "subgraphs: {<name>: {state, entry, nodes, edges}}",
  },
  {
    name: "fan_out.inner_subgraph (observability 029, 039, 044, 054)",
    capability: "observability",
    text: graph("    fan_out: {inner_subgraph: fast, count: 2, collect_field: v, target_field: vs}", "  final_state: {v: 0, done: false, vs: [1, 1]}", "", FAN_STATE),
    wrong: graph("    fan_out: {inner_subgraph: fast, count: 2, collect_field: v, target_field: vs}", "  final_state: {v: 0, done: false, vs: [1]}", "", FAN_STATE),
    form: "fan_out.inner_subgraph",
    location: /\(nodes\.a\.fan_out\.inner_subgraph\)$/,
    replacement: "fan_out: {subgraph: <name>}",
  },
  {
    name: "subgraph_call: {subgraph, outputs} (observability 039)",
    capability: "observability",
    text: graph("    subgraph_call: {subgraph: fast, outputs: {v: v}}", "  final_state: {v: 1, done: false}"),
    wrong: graph("    subgraph_call: {subgraph: fast, outputs: {v: v}}", "  final_state: {v: 0, done: false}"),
    form: "subgraph_call",
    location: /\(nodes\.a\.subgraph_call\)$/,
    replacement: "subgraph: <name>, with inputs: / outputs: beside it",
  },
  {
    name: "augment_metadata on a parallel-branches entry (observability 030)",
    capability: "observability",
    text: AUGMENTED(BRANCHES, "    pm: {t: T, k: p}\n    qm: {t: T}\n    ms: []\n    after: {t: T}"),
    wrong: AUGMENTED(BRANCHES, "    pm: {t: T, k: p}\n    qm: {t: T, k: p}\n    ms: []\n    after: {t: T}"),
    form: "parallel_branches.branches.<name>.augment_metadata",
    location: /\(nodes\.a\.parallel_branches\.branches\.p\.augment_metadata\)$/,
    replacement: "augment_metadata: {...} on the first node of the subgraph the entry runs",
  },
  {
    name: "augment_metadata on a fan-out entry",
    capability: "observability",
    text: AUGMENTED(INSTANCES, "    pm: {}\n    qm: {}\n    ms: [{t: T, k: i}, {t: T, k: i}]\n    after: {t: T}"),
    wrong: AUGMENTED(INSTANCES, "    pm: {}\n    qm: {}\n    ms: [{t: T, k: i}, {t: T, k: i}]\n    after: {t: T, k: i}"),
    form: "fan_out.augment_metadata",
    location: /\(nodes\.a\.fan_out\.augment_metadata\)$/,
    replacement: "augment_metadata: {...} on the first node of the subgraph the entry runs",
  },
  {
    name: "edges[].when {field, equals} with a static else edge (observability 011's shape)",
    capability: "observability",
    text: WHEN(true, "    execution_order: [a, b]"),
    wrong: WHEN(false, "    execution_order: [a, b]"),
    form: "edges[].when with a static else edge",
    location: /\(edges\[1\]\.when\)$/,
    replacement: "{from, condition: {if_field, equals, then, else}}",
  },
  {
    name: "calls_embed.model (read as calls_rerank.model is)",
    capability: "observability",
    text: EMBED("bound-embed-model"),
    wrong: EMBED("text-embedding-test"),
    form: "calls_embed.model",
    location: /\(nodes\.e\.calls_embed\.model\)$/,
    replacement: "the embedding provider block's model (or the mock's)",
  },
  {
    name: "on_other_indices beside conditional_suspend",
    capability: "suspension",
    text: OTHER_INDICES("[10, 20, 30]"),
    wrong: OTHER_INDICES("[0, 0, 0]"),
    form: "on_other_indices beside conditional_suspend",
    location: /\(subgraphs\.leaf\.nodes\.work\.on_other_indices\)$/,
    replacement: "conditional_suspend: {..., on_other_indices: {...}}",
  },
];

describe("legacy forms (issue 31 item 3): read through their current form, counted, refused when strict", function () {
  this.timeout(30_000);
  for (const f of FORMS) {
    it(`${f.name}: passes, counted once at the form`, async () => {
      const r = await run(f.text, f.capability);
      expect(r.status, `${r.category}: ${r.message}`).to.equal("passed");
      const use = r.deprecations.find((d) => d.directive === f.form);
      expect(use, JSON.stringify(r.deprecations)).to.not.equal(undefined);
      expect(use!.location).to.match(f.location);
      expect(use!.replacement).to.equal(f.replacement);
    });
    if (f.wrong !== undefined) {
      it(`${f.name}: still checked (a wrong expectation fails)`, async () => {
        const r = await run(f.wrong!, f.capability);
        expect(r.status).to.equal("failed");
        expect(r.category, r.message ?? "").to.equal("assertion_failed");
      });
    }
    it(`${f.name}: strict — fixture_directive_unknown naming the replacement`, async () => {
      const r = await run(f.text, f.capability, true);
      expect(r.category, r.message ?? "").to.equal("fixture_directive_unknown");
      for (const m of f.strict ?? [`'${f.form}'`, `write ${f.replacement} instead`]) expect(r.message).to.contain(m);
    });
  }

  it("saved_session_assertions.excludes_fields (sessions 004) is dropped, counted", async () => {
    const text = `
state: {fields: {summary: {type: string, default: ""}, scratch: {type: string, default: ""}}}
entry: a
nodes:
  a: {update: {summary: s, scratch: x}}
edges: [{from: a, to: END}]
session_store: in_memory
invocations:
  - name: first
    session_id: s1
    initial_state: {}
    expected:
      saved_session_assertions:
        state: {summary: s, scratch: x}
        excludes_fields: []
`;
    const r = await run(text, "sessions");
    expect(r.status, `${r.category}: ${r.message}`).to.equal("passed");
    expect(r.deprecations.map((d) => d.directive)).to.include("saved_session_assertions.excludes_fields");
    // written beside expected: in the invocation entry too (sessions 004 writes it there).
    const beside = await run(text.replace("    expected:\n      saved_session_assertions:\n        state: {summary: s, scratch: x}\n        excludes_fields: []", "    saved_session_assertions:\n      state: {summary: s, scratch: x}\n      excludes_fields: [scratch]"), "sessions");
    expect(beside.status, `${beside.category}: ${beside.message}`).to.equal("passed");
    expect(beside.deprecations.map((d) => d.directive)).to.include("saved_session_assertions.excludes_fields");
    const strict = await run(text, "sessions", true);
    expect(strict.category, strict.message ?? "").to.equal("fixture_directive_unknown");
  });

  it("edges[].when with a comparison §5.3 does not define (gt, observability 011) is not read", async () => {
    const r = await run(WHEN(true, "    execution_order: [a, b]").replace("equals: 1", "gt: 0"), "observability");
    expect(r.category, r.message ?? "").to.equal("fixture_schema_invalid");
    expect(r.message).to.contain("unknown key 'when'");
  });

  it("edges[].when without exactly one static else edge is not read", async () => {
    const r = await run(WHEN(true, "    execution_order: [a, b]").replace("  - {from: a, to: END}\n", ""), "observability");
    expect(r.category, r.message ?? "").to.equal("fixture_schema_invalid");
  });

  it("an inner_subgraphs body without state is counted as its own use (own schema, no declared field); strict refuses the key", async () => {
    const r = await run(INNER("  final_state: {v: 0, done: false}"), "observability");
    const uses = r.deprecations.filter((d) => d.directive === "inner_subgraphs.<name> without state").map((d) => d.location);
    expect(uses, JSON.stringify(r.deprecations)).to.have.length(2);
    expect(uses[0]).to.match(/\(inner_subgraphs\.p\)$/);
  });

  it("fan_out items_field without item_field is not read (pipeline-utilities §9: item_field is required with items_field)", async () => {
    const r = await run(graph("    fan_out: {inner_subgraph: fast, items_field: xs, collect_field: v, target_field: vs}", "  final_state: {v: 0}", "", FAN_STATE), "observability");
    expect(r.category, r.message ?? "").to.equal("fixture_schema_invalid");
    expect(r.message).to.contain("missing required key 'item_field'");
  });

  it("an inline calls_llm.response without messages is not read (the request is not written)", async () => {
    const r = await run(graph("    calls_llm: {model: m, response: hi}", "  final_state: {v: 0, done: false}"), "observability");
    expect(r.status).to.equal("failed");
    expect(r.message).to.contain("response");
  });

  it("a list of branches that repeats a name is not read as a mapping (left to the schema)", async () => {
    const r = await run(graph("    parallel_branches: {branches: [fast, fast]}", "  final_state: {v: 1, done: false}"), "observability");
    expect(r.category, r.message ?? "").to.equal("fixture_schema_invalid");
  });
});
