/**
 * The §6 payload-leak invariant's conformance directives (conformance-adapter §5.5 / §5.8,
 * proposals 0116–0118): `expected_construction_error`, the payload-scoped leak assertions and the
 * `langfuse_client` arms, each shown to FAIL on a wrong observation. They are §5-defined (home
 * general), so these run in a graph-engine directory — and the leak assertions need no
 * `caller_global_otel_active` there: they put the case's exporter on the global provider themselves.
 */
import { directiveTester } from "./tester.ts";
import { chain } from "./templates.ts";

/** a (writes a private text) → END, the Langfuse keys `langfuse`, then `rest` (e.g. `expected:`). */
const privateText = (langfuse: string, rest: string): string => `
${chain('secret: {type: string, default: ""}', { a: '{update_pure: {secret: "private text"}}' })}
initial_state: {}
${langfuse}
${rest}
`;

const PRIMED = "langfuse_client: {mode: credentials, preexisting_same_key_client: true}";
const ACCEPT = "langfuse_client: {mode: credentials, preexisting_same_key_client: true, accept_shared_provider: true}";
const STATE_ON = "langfuse_observer: {disable_state_payload: false}";
const HOOK_ON = "langfuse_observer: {trace_output_from_state: {field: secret}}";
const RAISE = "expected_construction_error: {category: langfuse_provider_isolation_unavailable}";

directiveTester("expected_construction_error", {
  template: (b) => b,
  valid: [
    privateText(`${PRIMED}\n${STATE_ON}`, `${RAISE}\nexpected: {no_payload_bearing_langfuse_observations_on_global: true}`),
    privateText(`${PRIMED}\n${HOOK_ON}`, RAISE),
  ],
  invalid: [
    {
      code: privateText(`${PRIMED}\n${STATE_ON}`, "expected_construction_error: {category: provider_unavailable}"),
      message: 'expected_construction_error.category: expected "provider_unavailable", got "langfuse_provider_isolation_unavailable"',
    },
    // Not primed: the observer is isolated, nothing raises.
    { code: privateText(`langfuse_client: {mode: credentials}\n${STATE_ON}`, RAISE), message: "but no construction error was raised: it completed" },
    // The opt-out: no raise either.
    { code: privateText(`${ACCEPT}\n${STATE_ON}`, RAISE), message: "but no construction error was raised" },
    // A node's categorized error is not a construction error.
    {
      code: `
${chain("v: {type: int, default: 0}", { a: '{raises: "boom"}' })}
initial_state: {}
${PRIMED}
expected_construction_error: {category: node_exception}
`,
      message: "that no observer / client construction raised",
    },
    { code: privateText(PRIMED, "expected_construction_error: {}"), category: "fixture_schema_invalid", message: "category" },
  ],
});

directiveTester("no_payload_bearing_langfuse_observations_on_global", {
  template: (b) => b,
  valid: [
    // Primed, no payload configured: payload-free observations reach the global provider.
    privateText(PRIMED, "expected: {langfuse_observations_on_global: true, no_payload_bearing_langfuse_observations_on_global: true}"),
  ],
  invalid: [
    { code: privateText(`${ACCEPT}\n${STATE_ON}`, "expected: {no_payload_bearing_langfuse_observations_on_global: true}"), message: "1 reached it: a" },
    { code: privateText(`${ACCEPT}\n${HOOK_ON}`, "expected: {no_payload_bearing_langfuse_observations_on_global: true}"), message: "1 reached it: a" },
  ],
});

directiveTester("payload_bearing_langfuse_observations_on_global", {
  template: (b) => b,
  valid: [
    privateText(`${ACCEPT}\n${STATE_ON}`, "expected: {payload_bearing_langfuse_observations_on_global: true}"),
    privateText(`${ACCEPT}\n${HOOK_ON}`, "expected: {payload_bearing_langfuse_observations_on_global: true}"),
  ],
  invalid: [
    { code: privateText(PRIMED, "expected: {payload_bearing_langfuse_observations_on_global: true}"), message: "none did (1 payload-free)" },
    // Isolated (not primed): nothing reaches the global provider at all.
    { code: privateText(`langfuse_client: {mode: credentials}\n${STATE_ON}`, "expected: {payload_bearing_langfuse_observations_on_global: true}"), message: "none did (0 payload-free)" },
    { code: privateText(`langfuse_client: {mode: credentials}\n${STATE_ON}`, "expected: {langfuse_observations_on_global: true}"), message: "none did" },
  ],
});

directiveTester("the isolation diagnostics as log records (level / event_name / count)", {
  template: (b) => b,
  valid: [
    privateText(`${ACCEPT}\n${STATE_ON}`, "expected:\n  log_records: [{level: WARNING, event_name: openarmature.langfuse.shared_provider_accepted, count: 1}]"),
    privateText(PRIMED, "expected:\n  log_records: [{level: WARNING, event_name: openarmature.langfuse.isolation_unavailable}]"),
    privateText("langfuse_client: {mode: credentials}", "expected:\n  log_records_absent: [{level: WARNING}]"),
  ],
  invalid: [
    { code: privateText(PRIMED, "expected:\n  log_records: [{level: WARNING, event_name: openarmature.langfuse.shared_provider_accepted}]"), message: "log_records" },
    { code: privateText(PRIMED, "expected:\n  log_records: [{level: INFO}]"), message: "log_records" },
    { code: privateText(`${ACCEPT}\n${STATE_ON}`, "expected:\n  log_records_absent: [{event_name: openarmature.langfuse.shared_provider_accepted}]"), message: "match an absent entry" },
  ],
});

directiveTester("langfuse_observer trace hooks (§8.4.1)", {
  template: (b) => b,
  capability: "observability", // langfuse_trace is the observability directory's
  valid: [
    privateText(`langfuse_client: {mode: credentials}\n${HOOK_ON}`, 'expected:\n  langfuse_trace: {output: "private text"}'),
    privateText("langfuse_observer: {trace_output_from_state: {returns: null}}", "expected:\n  langfuse_trace: {output: {final_node: a, status: completed}}"),
    privateText("langfuse_observer: {trace_input_from_state: {returns: {k: 1}}}", "expected:\n  langfuse_trace: {input: {k: 1}}"),
  ],
  invalid: [
    { code: privateText(HOOK_ON, "expected:\n  langfuse_trace: {output: {final_node: a, status: completed}}"), message: "langfuse_trace.output" },
    { code: privateText("langfuse_observer: {trace_output_from_state: {field: secret, returns: 1}}", ""), category: "fixture_schema_invalid", message: "trace_output_from_state" },
  ],
});

/**
 * `langfuse_client` mode × provider / priming (§5.5): every pairing the seed defines runs as
 * written — an omitted `provider` is `global` — and an undefined pairing (`provider` under
 * credentials, `preexisting_same_key_client` under supplied) is refused at its key, never dropped.
 */
directiveTester("langfuse_client", {
  template: (b) => b,
  valid: [
    privateText("langfuse_client: {mode: credentials}", "expected: {no_langfuse_observations_on_global: true}"),
    privateText("langfuse_client: {mode: supplied}", "expected: {langfuse_observations_on_global: true}"),
    privateText("langfuse_client: {mode: supplied, provider: global}", "expected: {langfuse_observations_on_global: true}"),
    privateText("langfuse_client: {mode: supplied, provider: isolated}", "expected: {no_langfuse_observations_on_global: true}"),
    privateText(PRIMED, "expected: {langfuse_observations_on_global: true}"),
  ],
  invalid: [
    { code: privateText("langfuse_client: {mode: supplied}", "expected: {no_langfuse_observations_on_global: true}"), message: "no_langfuse_observations_on_global" },
    { code: privateText("langfuse_client: {mode: supplied, provider: isolated}", "expected: {langfuse_observations_on_global: true}"), message: "none did" },
    { code: privateText("langfuse_client: {mode: credentials, provider: global}", ""), category: "fixture_schema_invalid", message: "langfuse_client.provider applies only to mode: supplied" },
    { code: privateText("langfuse_client: {mode: credentials, provider: isolated}", ""), category: "fixture_schema_invalid", message: "mode: credentials defines no provider" },
    { code: privateText("langfuse_client: {mode: supplied, preexisting_same_key_client: true}", ""), category: "fixture_schema_invalid", message: "langfuse_client.preexisting_same_key_client is meaningful only with mode: credentials" },
    { code: privateText("langfuse_client: {mode: supplied, provider: isolated, preexisting_same_key_client: false}", ""), category: "fixture_schema_invalid", message: "mode: supplied defines no preexisting_same_key_client" },
  ],
});
