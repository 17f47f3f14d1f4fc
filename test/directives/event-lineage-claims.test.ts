/**
 * The typed-event lineage and arrival-order claims (observability 054, 055, 056), over a fan-out, a
 * parallel-branches node and a plain node: each holds where the engine's events say the call ran
 * where its node ran, and fails naming the event where it reads nothing to judge.
 */
import { directiveTester } from "./tester.ts";

const OK = (id: string) => `  - {status: 200, body: {id: ${id}, object: chat.completion, model: m, choices: [{index: 0, message: {role: assistant, content: hi}, finish_reason: stop}], usage: {prompt_tokens: 1, completion_tokens: 1, total_tokens: 2}}}`;
const MOCK = `mock_llm:\n${OK("a")}\n${OK("b")}`;
const INNER = `subgraphs:
  inner:
    state:
      fields:
        item: {type: int, default: 0}
        msg: {type: string, default: ""}
    entry: ask
    nodes:
      ask: {calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg}}
    edges:
      - {from: ask, to: END}`;
const collector = (filter = "") => `typed_observers:\n  - {name: collector, kind: typed_event_collector${filter}}`;
const claims = (names: string[], value = "true") => `expected:\n  invariants:\n${names.map((n) => `    ${n}: ${value}`).join("\n")}`;

const fanOut = (block: string) => `
${INNER}
state:
  fields:
    items: {type: list<int>, default: []}
    out: {type: list<string>, reducer: append, default: []}
entry: fan
nodes:
  fan: {fan_out: {subgraph: inner, items_field: items, item_field: item, collect_field: msg, target_field: out}}
edges:
  - {from: fan, to: END}
initial_state: {items: [1, 2]}
${MOCK}
${collector()}
${block}
`;

const branches = (block: string) => `
${INNER}
state:
  fields:
    x: {type: int, default: 0}
entry: dispatcher
nodes:
  dispatcher:
    parallel_branches:
      branches:
        fast: {subgraph: inner}
        slow: {subgraph: inner}
edges:
  - {from: dispatcher, to: END}
initial_state: {}
${MOCK}
${collector()}
${block}
`;

const plain = (block: string, filter = "") => `
state:
  fields:
    msg: {type: string, default: ""}
entry: ask
nodes:
  ask: {calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg}}
edges:
  - {from: ask, to: END}
initial_state: {}
${MOCK}
${collector(filter)}
${block}
`;

const FAN = ["per_instance_fan_out_index_populated", "sibling_instances_have_distinct_fan_out_index", "branch_name_null_outside_parallel_branches"];
const BRANCH = ["per_branch_branch_name_populated", "sibling_branches_have_distinct_branch_name", "fan_out_index_null_outside_fan_out"];
const ORDER = ["typed_event_arrives_after_node_started", "typed_event_arrives_before_node_completed", "typed_event_arrives_within_calling_node_span"];

directiveTester("typed-event lineage and arrival claims", {
  capability: "observability",
  template: (b) => b,
  valid: [
    fanOut(claims(FAN)),
    branches(claims(BRANCH)),
    plain(claims(["branch_name_null_outside_parallel_branches", "fan_out_index_null_outside_fan_out"])),
    plain(claims(ORDER)),
    fanOut(claims(ORDER)),
    branches(claims(ORDER)),
  ],
  invalid: [
    { code: plain(claims(["per_instance_fan_out_index_populated"])), message: "no typed call event came from a node running inside a fan-out instance" },
    { code: plain(claims(["per_branch_branch_name_populated"])), message: "no typed call event came from a node running inside a parallel branch" },
    { code: plain(claims(["sibling_instances_have_distinct_fan_out_index"])), message: "no two sibling call events" },
    { code: fanOut(claims(["fan_out_index_null_outside_fan_out"])), message: "no typed call event came from a node outside a fan-out instance" },
    { code: branches(claims(["branch_name_null_outside_parallel_branches"])), message: "no typed call event came from a node outside a parallel branch" },
    { code: fanOut(claims(["per_instance_fan_out_index_populated"], "false")), message: "per_instance_fan_out_index_populated" },
    { code: plain(claims(["typed_event_arrives_after_node_started"]), ", filter_event_type: LlmCompletionEvent"), message: "no collector retained both NodeEvents and a typed call event" },
    { code: plain(claims(["typed_event_arrives_within_calling_node_span"], "false")), message: "typed_event_arrives_within_calling_node_span" },
  ],
});
