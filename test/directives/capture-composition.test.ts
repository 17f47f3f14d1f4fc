/**
 * Capture composition (conformance-adapter §6.3, §5.5 *Langfuse observer composition*): a named
 * claim reading spans, metrics or Langfuse output composes the capture it reads, with no other key
 * in the case asking for it — the OTel capture for every observability case, the Langfuse observer
 * for any assertion on Langfuse output. Each claim also fails on a wrong observation.
 */
import { directiveTester } from "./tester.ts";

/** One node setting x. */
const ONE_NODE = `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes:
  a: {update: {x: 1}}
edges: [{from: a, to: END}]
initial_state: {}`;

const bare = (claims: string, dir = "") => `${ONE_NODE}
${dir}
expected:
  final_state: {x: 1}
invariants:
${claims}
`;

directiveTester("a claim composes the capture it reads (§6.3, §5.5 Langfuse composition)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    // OTel spans: no span_tree / mock_llm in the case, the claim alone composes the §6.3 capture.
    bare("  inner_node_span_count: 0"),
    // Langfuse output: no langfuse_observer / langfuse_client block, the claim alone composes the observer.
    bare("  trace_id_equals_invocation_id_dashes_stripped: true\n  trace_user_id_unset: true"),
    // §6.9 metrics read through the same capture (metrics off: nothing recorded).
    bare("  no_measurements_recorded_when_metrics_off: true"),
  ],
  invalid: [
    { code: bare("  inner_node_span_count: 1"), message: "inner_node_span_count" },
    { code: bare("  trace_id_equals_invocation_id_dashes_stripped: false"), message: "trace_id_equals_invocation_id_dashes_stripped" },
  ],
});

directiveTester("a sessions claim reading spans composes the OTel capture (§6.3)", {
  template: (b) => b,
  capability: "sessions",
  valid: [bare("  node_event_does_not_carry_session_id_field: true")],
  invalid: [],
});

/** Two calls, Langfuse client supplied on the global provider (mode (a)): its observations reach it. */
const twoCallsSupplied = (expected: string) => `${ONE_NODE}
caller_global_otel_active: true
langfuse_client: {mode: supplied}
invocations:
  - {name: one}
  - {name: two}
expected:
${expected}
`;

directiveTester("Langfuse leak assertions in the case-level block of a multi-invocation case (§8.4)", {
  template: twoCallsSupplied,
  capability: "observability",
  valid: ["  langfuse_observations_on_global: true\n  no_payload_bearing_langfuse_observations_on_global: true\n  no_langfuse_observations_on_private: true"],
  // Every call's observations are read: both calls' reached the global exporter.
  invalid: [{ code: "  no_langfuse_observations_on_global: true", message: "2 reached it" }],
});
