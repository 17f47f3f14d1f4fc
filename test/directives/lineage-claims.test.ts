/**
 * The lineage claims (observability 132–134; directives/observability/lineage-claims.ts) over a
 * nesting the fixtures do not use — a concurrent fan-out whose instances run a subgraph holding a
 * parallel-branches node, each branch's node making one LLM call (from its body, or from a
 * pre-phase wrapper: the orphan form) — so each claim is shown to read lineage through every
 * composite kind, and to fail when asserted against the other form's tree or with a wrong figure.
 */
import { expect } from "chai";
import { ROOT_CONTEXT, trace, type Span } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { NodeEvent } from "../../src/graph/index.ts";
import { eventSteps, isNodeOf, missingNodes, otelReader, sameSteps, treeSteps } from "../../harness/observability/lineage.ts";
import { directiveTester } from "./tester.ts";

const reply = (i: number) =>
  `  - {status: 200, body: {id: cc-${i}, object: chat.completion, model: test-model, choices: [{index: 0, message: {role: assistant, content: ok}, finish_reason: stop}], usage: {prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}}}`;

const nested = (call: "body" | "wrapper") => (expected: string) => `
subgraphs:
  leaf:
    state: {fields: {seed: {type: int, default: 0}, out: {type: string, default: ""}}}
    entry: ask
    nodes:
      ask:
        ${call === "body" ? "calls_llm: {messages: [{role: user, content: hi}], stores_response_in: out}" : "update: {out: x}\n        calls_llm_from_wrapper: {phase: pre, messages: [{role: user, content: guard}]}"}
    edges: [{from: ask, to: END}]
  mid:
    state: {fields: {seed: {type: int, default: 0}, out: {type: string, default: ""}}}
    entry: split
    nodes:
      split:
        parallel_branches:
          branches:
            left: {subgraph: leaf}
            right: {subgraph: leaf}
          error_policy: fail_fast
    edges: [{from: split, to: END}]
state:
  fields:
    seeds: {type: list<int>, default: [0, 0]}
    outs: {type: list<string>, reducer: append, default: []}
entry: outer
nodes:
  outer:
    fan_out: {subgraph: mid, items_field: seeds, item_field: seed, collect_field: out, target_field: outs, error_policy: collect, concurrent_mode: concurrent}
edges: [{from: outer, to: END}]
initial_state: {}
langfuse_client: {mode: credentials}
mock_llm:
${[1, 2, 3, 4].map(reply).join("\n")}
expected:
  invariants:
${expected.split("\n").map((l) => `    ${l}`).join("\n")}
`;

directiveTester("lineage claims, calls from node bodies (132 / 134 case 1 forms)", {
  capability: "observability",
  template: nested("body"),
  valid: [
    [
      "no_inner_spans_dropped_under_concurrent_nesting: true",
      "no_inner_observations_dropped_under_concurrent_nesting: true",
      "inner_node_span_count: 4",
      "llm_provider_span_count: 4",
      "generation_count: 4",
      "llm_span_parents_under_own_lineage_calling_node: true",
      "generation_parents_under_own_lineage_calling_node_observation: true",
      "langfuse_parent_matches_otel_parent: true",
      "unique_fan_out_indices_per_node_span_under: outer",
      "fan_out_index_range: [0, 1]",
    ].join("\n"),
  ],
  invalid: [
    { code: "inner_node_span_count: 2", message: "4 inner node spans" },
    { code: "generation_count: 2", message: "4 Generations" },
    { code: "unique_fan_out_indices_per_node_span_under: split", message: "a split node has no instance under it" },
    // the in-body calls are not orphans: their parent is the node, not an instance / beside it
    { code: "orphan_generation_parents_under_inner_fan_out_instance_observation: true", message: "not under their own fan-out instance observation" },
    { code: "orphan_generation_sibling_of_calling_node_observation: true", message: "have no calling-node sibling" },
    { code: "orphan_llm_span_sibling_of_calling_node_span: true", message: "have no calling-node sibling" },
    { code: "orphan_llm_span_parents_under_branch_dispatch_span: true", message: "not under their own branch dispatch span" },
  ],
});

directiveTester("lineage claims, calls from a pre-phase wrapper (133 / 134 case 2 forms)", {
  capability: "observability",
  template: nested("wrapper"),
  valid: [
    [
      "no_inner_spans_dropped_under_concurrent_nesting: true",
      "no_inner_observations_dropped_under_concurrent_nesting: true",
      "orphan_llm_span_not_under_coincidentally_indexed_sibling: true",
      "orphan_llm_span_parents_under_branch_dispatch_span: true",
      "orphan_llm_span_routed_to_correct_branch_by_name: true",
      "orphan_llm_span_not_under_dispatcher_node_or_invocation: true",
      "orphan_llm_span_not_under_fan_out_node_or_invocation: true",
      "orphan_llm_span_sibling_of_guard_node_span: true",
      "orphan_generation_not_under_coincidentally_indexed_sibling: true",
      "orphan_generation_not_under_fan_out_node_or_trace: true",
      "orphan_generation_sibling_of_calling_node_observation: true",
      "langfuse_parent_matches_otel_parent: true",
    ].join("\n"),
  ],
  invalid: [
    // the orphans' nearest wrapper is the branch dispatch span, not a fan-out instance
    { code: "orphan_generation_parents_under_inner_fan_out_instance_observation: true", message: "not under their own fan-out instance observation" },
    { code: "llm_span_parents_under_own_lineage_calling_node: true", message: "are not under the" },
    { code: "orphan_llm_span_parents_under_inner_fan_out_instance: true", message: "not under their own fan-out instance span" },
    { code: "generation_parents_under_own_lineage_calling_node_observation: true", message: "are not under the" },
    { code: "orphan_generation_not_under_fan_out_node_or_trace: false", message: "orphan_generation_not_under_fan_out_node_or_trace" },
  ],
});

describe("lineage reading (harness/observability/lineage.ts) on a mis-parented tree", () => {
  // Real spans, deliberately wired wrong: the LLM span of the call in outer instance 1 sits under
  // the `ask` span of outer instance 0 (the same innermost index) — what a scalar-keyed observer does.
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
  const open = (name: string, attributes: Record<string, string | number | string[]>, parent?: Span): Span =>
    tracer.startSpan(name, { attributes }, parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT);
  const root = open("openarmature.invocation", {});
  const fan = open("outer", { "openarmature.node.name": "outer", "openarmature.node.namespace": ["outer"], "openarmature.fan_out.item_count": 2 }, root);
  const instances: Span[] = [];
  const asks = [0, 1].map((i) => {
    const inst = open("outer", { "openarmature.fan_out.parent_node_name": "outer", "openarmature.node.fan_out_index": i }, fan);
    instances.push(inst);
    return open("ask", { "openarmature.node.name": "ask", "openarmature.node.namespace": ["outer", "ask"], "openarmature.node.attempt_index": 0, "openarmature.node.step": 1 }, inst);
  });
  const llm = open("openarmature.llm.complete", {}, asks[0]);
  for (const s of [llm, ...asks, ...instances, fan, root]) s.end();
  const spans = exporter.getFinishedSpans();
  const r = otelReader(spans);
  const at = (s: Span) => spans.find((x) => x.spanContext().spanId === s.spanContext().spanId)!;
  const call = { nodeName: "ask", namespace: ["outer", "ask"], attemptIndex: 0, fanOutIndexChain: [1, null], branchNameChain: [null, null] };

  it("reads each position's lineage from the wrappers above it", () => {
    expect(treeSteps(r, at(asks[1]!))).to.deep.equal(["fan_out_index 1"]);
    expect(eventSteps(call)).to.deep.equal(["fan_out_index 1"]);
    expect(isNodeOf(r, at(asks[1]!), call)).to.equal(true);
  });

  it("the coincidentally indexed sibling is not the call's node (the claim fails on this tree)", () => {
    const parent = r.parent(at(llm))!;
    expect(parent.name).to.equal("ask");
    expect(isNodeOf(r, parent, call)).to.equal(false);
    expect(sameSteps(treeSteps(r, parent), eventSteps(call))).to.equal(false);
  });

  it("a node event with no span of its lineage is reported missing", () => {
    const started = { phase: "started", step: 2, ...call, fanOutIndexChain: [2, null] } as unknown as NodeEvent;
    expect(missingNodes(r, spans, [started])).to.have.length(1);
  });
});
