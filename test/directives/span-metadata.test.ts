import { directiveTester } from "./tester.ts";

/** Fan-out instances augmenting `productId` from their item, a serial node augmenting `requestId`. */
const fanOut = (claims: string, extra = "") => `
subgraphs:
  per_item:
    state: {fields: {item: {type: string, default: ""}, out: {type: string, default: ""}}}
    entry: ask
    nodes:
      ask: {augment_metadata_from_field: {productId: item}, update_from_field: {out: item}}
    edges: [{from: ask, to: END}]
state: {fields: {products: {type: list<string>, default: []}, outs: {type: list<string>, default: []}}}
entry: tag
nodes:
  tag: {augment_metadata: {requestId: r-1}}
  fan:
    fan_out: {subgraph: per_item, items_field: products, item_field: item, collect_field: out, target_field: outs}
edges:
  - {from: tag, to: fan}
  - {from: fan, to: END}
initial_state: {products: [A, B]}
caller_metadata: {tenantId: acme}
caller_invocation_id: 550e8400-e29b-41d4-a716-446655440000
${extra}expected:
  invocation_id: 550e8400-e29b-41d4-a716-446655440000
  invariants:
${claims}
`;

const branches = (claims: string) => `
subgraphs:
  a: {state: {fields: {v: {type: int, default: 0}}}, entry: n, nodes: {n: {augment_metadata: {branchName: fraud}}}, edges: [{from: n, to: END}]}
  b: {state: {fields: {v: {type: int, default: 0}}}, entry: n, nodes: {n: {augment_metadata: {branchName: policy}}}, edges: [{from: n, to: END}]}
state: {fields: {v: {type: int, default: 0}}}
entry: split
nodes:
  split:
    parallel_branches:
      branches: {fraud: {subgraph: a}, policy: {subgraph: b}}
edges: [{from: split, to: END}]
initial_state: {}
caller_metadata: {tenantId: acme}
expected:
  invariants:
${claims}
`;

const LLM_BODY = (id: string) =>
  `{status: 200, body: {id: ${id}, object: chat.completion, model: test-model, choices: [{index: 0, message: {role: assistant, content: ok}, finish_reason: stop}], usage: {prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}}}`;

/**
 * Branches whose inner nodes call an LLM: observability §5.7 puts openarmature.node.branch_name on
 * the dispatch span and the inner-node spans beneath it, not on the LLM provider span (§5.5).
 */
const branchesWithLlm = (claims: string) =>
  branches(claims)
    .replace("nodes: {n: {augment_metadata: {branchName: fraud}}}", "nodes: {n: {augment_metadata: {branchName: fraud}, calls_llm: {messages: [{role: user, content: hi}]}}}")
    .replace("nodes: {n: {augment_metadata: {branchName: policy}}}", "nodes: {n: {augment_metadata: {branchName: policy}, calls_llm: {messages: [{role: user, content: hi}]}}}")
    .replace("caller_metadata: {tenantId: acme}", `caller_metadata: {tenantId: acme}\nmock_llm:\n  - ${LLM_BODY("c-1")}\n  - ${LLM_BODY("c-2")}`);

directiveTester("caller metadata and ids on spans (observability 026, 029, 030, 034, 035)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    fanOut(`    caller_metadata_cross_cutting: true
    baseline_caller_metadata_universal: true
    fan_out_per_instance_metadata_isolation: true
    open_span_update_reaches_invocation_and_node_spans: true
    caller_invocation_id_verbatim_on_attribute: true`),
    branches(`    parallel_branches_per_branch_metadata_isolation: true
    per_branch_oa_emitted_branch_name_isolation: true
    baseline_caller_metadata_universal: true`),
    branchesWithLlm("    per_branch_oa_emitted_branch_name_isolation: true"),
  ],
  invalid: [
    { code: fanOut("    caller_metadata_cross_cutting: true").replace("caller_metadata: {tenantId: acme}", ""), message: "the call passed no caller metadata" },
    { code: fanOut("    fan_out_per_instance_metadata_isolation: false"), message: "fan_out_per_instance_metadata_isolation" },
    // With no serial augmentation the claim has nothing to show.
    { code: fanOut("    open_span_update_reaches_invocation_and_node_spans: true").replace("tag: {augment_metadata: {requestId: r-1}}", "tag: {noop: true}"), message: "no serial node augmented" },
    { code: fanOut("    caller_invocation_id_verbatim_on_attribute: true").replace("caller_invocation_id: 550e8400-e29b-41d4-a716-446655440000\n", ""), message: ["the call supplied no invocation id", "expected.invocation_id"] },
    { code: branches("    parallel_branches_per_branch_metadata_isolation: false"), message: "parallel_branches_per_branch_metadata_isolation" },
    { code: branches("    per_branch_oa_emitted_branch_name_isolation: false"), message: "per_branch_oa_emitted_branch_name_isolation" },
    // Nothing forks: there is nothing to isolate.
    { code: branches("    fan_out_per_instance_metadata_isolation: true"), message: "nothing to isolate" },
  ],
});
