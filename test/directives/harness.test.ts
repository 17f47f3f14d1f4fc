import { directiveTester, indent } from "./tester.ts";

interface GraphOpts {
  readonly nodes: string;
  readonly edges: string;
  readonly entry: string;
  readonly store?: string;
}

/** The case's graph (`entry`, `nodes`, `edges`) and its `session_store`, as lines of the case mapping. */
function graphLines(opts: GraphOpts): string {
  return `    entry: ${opts.entry}
    nodes:
${indent(opts.nodes, 6)}
    edges:
${indent(opts.edges, 6)}
    session_store: ${opts.store ?? "in_memory"}`;
}

/** An optional list-valued key of the case mapping (`invariants`, `signal_arrivals`): empty when absent. */
function optionalLines(key: string, list: string | undefined): string {
  return list !== undefined ? `    ${key}:\n${indent(list, 6)}` : "";
}

/** A harness case: the graph of `nodes` (a → [b →] END), state `fields`, then `transmissions` (YAML list). */
function harnessCase(opts: GraphOpts & { mode?: string; fields?: string; tx: string; invariants?: string }): string {
  return `
cases:
  - name: c
    harness: {mode: ${opts.mode ?? "sessioned"}, signal_coordinator: in_memory}
    state:
      fields:
${indent(opts.fields ?? "v: {type: int, default: 0}\napproved: {type: bool, default: false}", 8)}
${graphLines(opts)}
    checkpointer: in_memory
    transmissions:
${indent(opts.tx, 6)}
${optionalLines("invariants", opts.invariants)}`;
}

const completes = (expected: string, payload = '{session_id: "s-1"}', intent = "new_session") =>
  harnessCase({
    nodes: "compute: {update: {v: 42}}",
    edges: "- {from: compute, to: END}",
    entry: "compute",
    tx: `- name: t1\n  payload: ${payload}\n  dispatch_intent: ${intent}\n  expected:\n${indent(expected, 4)}`,
  });

const raising = (category: string, expected: string) =>
  harnessCase({
    nodes: `boom: {raises: {category: ${category}, message: "it broke"}}`,
    edges: "- {from: boom, to: END}",
    entry: "boom",
    tx: `- name: t1\n  payload: {session_id: "s-1"}\n  expected:\n${indent(expected, 4)}`,
  });

/** gate suspends (signal g-1) → after → END; t1 suspends, t2 is the signal arrival. */
const roundtrip = (first: string, second: string) =>
  harnessCase({
    nodes: "gate: {suspend_with_descriptor: {signal_id: g-1, metadata: {kind: approval}}}\nafter: {update: {v: 1}}",
    edges: "- {from: gate, to: after}\n- {from: after, to: END}",
    entry: "gate",
    tx: `- name: t1\n  payload: {session_id: "s-1"}\n  dispatch_intent: new_session\n  expected:\n${indent(first, 4)}\n- name: t2\n  payload: {signal_id: g-1}\n  signal_payload: {approved: true}\n  dispatch_intent: signal_resume\n  expected:\n${indent(second, 4)}`,
  });

directiveTester("dispatch_path / invoke_outcome / outbound_shape (harness)", {
  capability: "harness",
  template: (b) => completes(b),
  valid: ["dispatch_path: \"3.1\"\ninvoke_outcome: completed\noutbound_shape: completion_response\nfinal_state: {v: 42, approved: false}"],
  invalid: [
    { code: 'dispatch_path: "3.2"', message: 'dispatch_path: expected "3.2", got "3.1"' },
    { code: "invoke_outcome: errored", message: "invoke_outcome" },
    { code: "outbound_shape: error_response", message: "outbound_shape" },
    { code: 'dispatch_path: "4.0"', category: "fixture_schema_invalid", message: "dispatch_path" },
  ],
});

directiveTester("invoke_args (harness)", {
  capability: "harness",
  template: (b) => completes(b, "{kind: start}"),
  valid: ["invoke_args: {session_id_present: true, session_id_auto_generated: true}"],
  invalid: [
    { code: "invoke_args: {session_id_present: false}", message: "invoke_args.session_id_present" },
    { code: "invoke_args: {session_id_auto_generated: false}", message: "invoke_args.session_id_auto_generated" },
    { code: "invoke_args: {session_id_absent_verified: true}", message: "the harness passed session_id" },
  ],
});

directiveTester("invoke_args.session_id: the caller's id threaded and bound in the engine (harness §3.2)", {
  capability: "harness",
  template: (b) => completes(b, '{session_id: "conv-7"}', "existing_session"),
  valid: ['dispatch_path: "3.2"\ninvoke_args: {session_id: conv-7, session_id_auto_generated: false}'],
  invalid: [
    { code: "invoke_args: {session_id: conv-8}", message: 'invoke_args.session_id: expected "conv-8", got "conv-7"' },
    { code: "invoke_args: {session_id: conv-8}", message: 'a node ran with session "conv-7" bound in the engine' },
    { code: "invoke_args: {session_id: ''}", category: "fixture_schema_invalid", message: "session_id" },
  ],
});

directiveTester("invoke_args in stateless mode (harness)", {
  capability: "harness",
  template: (b) =>
    harnessCase({ mode: "stateless", nodes: "compute: {update: {v: 42}}", edges: "- {from: compute, to: END}", entry: "compute", tx: `- name: t1\n  payload: {x: 1}\n  expected:\n${indent(b, 4)}` }),
  valid: ['invoke_args: {session_id_present: false, session_id_absent_verified: true}\ndispatch_path: "3.0"\nsession_store_load_calls: 0\nsession_store_save_calls: 0'],
  invalid: [
    { code: "invoke_args: {session_id_present: true}", message: "invoke_args.session_id_present" },
    { code: "session_store_load_calls: 1", message: "session_store_load_calls" },
  ],
});

directiveTester("error_category / error_bucket / outbound_payload_includes (harness)", {
  capability: "harness",
  template: (b) => raising("provider_invalid_request", b),
  valid: [
    "error_category: provider_invalid_request\nerror_bucket: user_correctable\noutbound_payload_includes: {category: provider_invalid_request, bucket: user_correctable, diagnostic_message: \"it broke\", user_action_required: true}\nharness_auto_retried: false",
  ],
  invalid: [
    { code: "error_category: provider_unavailable", message: "error_category" },
    { code: "error_bucket: retryable_transient", message: "error_bucket" },
    { code: "outbound_payload_includes: {retry_safe: true}", message: "outbound_payload_includes.retry_safe" },
    { code: "harness_auto_retried: true", message: "harness_auto_retried" },
  ],
});

directiveTester("error_bucket on a completed turn (harness)", {
  capability: "harness",
  template: (b) => completes(b),
  valid: [],
  invalid: [{ code: "error_bucket: user_correctable", message: "an error bucket needs an errored turn" }],
});

directiveTester("suspension and signal-resume assertions (harness)", {
  capability: "harness",
  template: (b) => roundtrip(b, "invoke_outcome: completed"),
  valid: ["invoke_outcome: suspended\ndescriptor: {signal_id: g-1, metadata: {kind: approval}}\ndescriptor_read_from_outcome: true\nsignal_subscription_registered: true\nharness_did_not_block: true\noutbound_shape: suspended_acknowledgment"],
  invalid: [
    { code: "signal_subscription_registered: false", message: "signal_subscription_registered" },
    { code: "harness_did_not_block: false", message: "harness_did_not_block" },
    { code: "descriptor_read_from_outcome: false", message: "descriptor_read_from_outcome" },
  ],
});

directiveTester("signal_correlation_resolved / resolved_to_invocation_id (harness)", {
  capability: "harness",
  template: (b) => roundtrip("invoke_outcome: suspended", b),
  valid: [
    'dispatch_path: "3.3"\nsignal_correlation_resolved: true\nresolved_to_invocation_id: "<from t1 suspended outcome>"\ninvoke_args: {resume_invocation: "<from t1 suspended outcome>", signal_payload: {approved: true}}\nfinal_state: {v: 1, approved: true}',
  ],
  invalid: [
    { code: "signal_correlation_resolved: false", message: "signal_correlation_resolved" },
    { code: 'resolved_to_invocation_id: "not-the-id"', message: "resolved_to_invocation_id" },
    { code: "invoke_args: {signal_payload: {approved: false}}", message: "invoke_args.signal_payload" },
    { code: "signal_subscription_registered: true", message: "the turn completed" },
  ],
});

/**
 * Two sessions pause on the same signal id, so the signal id alone correlates to neither: the
 * arriving signal names its paused invocation in the payload's `invocation_id`, written as an input
 * placeholder resolved from t1's outcome before the transmission is sent (harness §3.3 / §6;
 * conformance-adapter §5.7, §5.10, §6.5).
 */
const twoPaused = (resumePayload: string, expected: string) =>
  harnessCase({
    nodes: "gate: {suspend_with_descriptor: {signal_id: g-1}}\nafter: {update: {v: 1}}",
    edges: "- {from: gate, to: after}\n- {from: after, to: END}",
    entry: "gate",
    tx: `- name: t1\n  payload: {session_id: "s-1"}\n  dispatch_intent: new_session\n  expected: {invoke_outcome: suspended}\n- name: t2\n  payload: {session_id: "s-2"}\n  dispatch_intent: new_session\n  expected: {invoke_outcome: suspended}\n- name: t3\n  payload: ${resumePayload}\n  signal_payload: {approved: true}\n  dispatch_intent: signal_resume\n  expected:\n${indent(expected, 4)}`,
  });

directiveTester("signal-resume correlation by the payload's invocation_id, placeholders resolved (harness)", {
  capability: "harness",
  template: (b) => b,
  valid: [
    twoPaused('{invocation_id: "<from t1 suspended outcome>"}', 'signal_correlation_resolved: true\nresolved_to_invocation_id: "<from t1 suspended outcome>"\ninvoke_outcome: completed'),
    twoPaused('{signal_id: g-1, invocation_id: "<from t2 suspended outcome>"}', 'resolved_to_invocation_id: "<from t2 suspended outcome>"\ninvoke_outcome: completed'),
  ],
  invalid: [
    { code: twoPaused('{invocation_id: "<from t1 suspended outcome>"}', 'resolved_to_invocation_id: "<from t2 suspended outcome>"'), message: "resolved_to_invocation_id" },
    // the signal id alone is ambiguous between the two paused invocations.
    { code: twoPaused("{signal_id: g-1}", "signal_correlation_resolved: true"), message: "signal_correlation_resolved" },
    // a placeholder naming no earlier call is a fixture defect.
    { code: twoPaused('{invocation_id: "<from nobody completed outcome>"}', "invoke_outcome: completed"), category: "fixture_schema_invalid", message: "cannot resolve" },
  ],
});

directiveTester("harness named claims", {
  capability: "harness",
  template: (b) =>
    harnessCase({
      nodes: "compute: {update: {v: 42}}",
      edges: "- {from: compute, to: END}",
      entry: "compute",
      tx: `- name: t1\n  payload: {session_id: "s-1"}\n  expected: {invoke_outcome: completed}`,
      invariants: b,
    }),
  valid: ["completed_outcome_surfaced_as_completion_response_shape: true\nengine_received_session_id: true\noutbound_shape_distinct_from_error_or_suspended: true"],
  invalid: [
    // no intent + a session id → §3.2, not §3.1
    { code: "harness_classified_as_new_session_path: true", message: 'classified as "3.2"' },
    { code: "harness_auto_generated_session_id: true", message: "no new-session turn" },
    { code: "provider_unavailable_classified_as_retryable_transient: true", message: "no errored turn of category provider_unavailable" },
    { code: "stateless_harness_classified_via_path_3_0: true", message: 'mode "sessioned"' },
  ],
});

/** A chat case: `messages` history + `extra` fields, the nodes, then chat turns (and signal arrivals). */
function chatCase(opts: GraphOpts & { turns: string; arrivals?: string; invariants?: string }): string {
  return `
cases:
  - name: c
    harness: {mode: sessioned}
    state:
      fields:
        messages: {type: "list[ChatMessage]", reducer: append, default: []}
        approved: {type: bool, default: false}
${graphLines(opts)}
    chat_turns:
${indent(opts.turns, 6)}
${optionalLines("signal_arrivals", opts.arrivals)}
${optionalLines("invariants", opts.invariants)}`;
}

const echoChat = (second: string) =>
  chatCase({
    nodes: 'reply: {update: {messages: [{role: assistant, content: "echo"}]}}',
    edges: "- {from: reply, to: END}",
    entry: "reply",
    turns: `- name: t1\n  session_id: c-1\n  user_message: {role: user, content: "one"}\n  expected: {outcome: completed}\n- name: t2\n  session_id: c-1\n  user_message: {role: user, content: "two"}\n  expected:\n${indent(second, 4)}`,
  });

// The graph's reply carries a key the fixture does not name (an empty tool_calls list): a
// ChatMessage compares by the keys the fixture names (conformance-adapter §8.4), so it still matches.
const echoChatWithToolCalls = (second: string) =>
  echoChat(second).replace('reply: {update: {messages: [{role: assistant, content: "echo"}]}}', 'reply: {update: {messages: [{role: assistant, content: "echo", tool_calls: []}]}}');

directiveTester("ChatMessage compares by named keys (harness-chat, §8.4)", {
  capability: "harness-chat",
  template: (b) => echoChatWithToolCalls(b),
  valid: [
    'replies: [{role: assistant, content: "echo"}]\nfinal_state: {messages_history_contains: [{role: assistant, content: "echo"}]}',
    'replies: [{role: assistant, content: "echo", tool_calls: []}]',
  ],
  invalid: [
    { code: 'replies: [{role: assistant, content: "echo", tool_calls: [{id: c1, name: f, arguments: {}}]}]', message: "replies" },
    { code: 'replies: [{role: assistant, content: "other"}]', message: "replies" },
    { code: 'final_state: {messages_history_contains: [{role: assistant, content: "echo", tool_call_id: x}]}', message: "messages_history_contains[0]" },
  ],
});

directiveTester("replies / final_state (harness-chat)", {
  capability: "harness-chat",
  template: (b) => echoChat(b),
  valid: [
    'dispatch_path: "3.2"\nreplies: [{role: assistant, content: "echo"}]\nfinal_state: {messages_count: 4, messages_history_contains: [{role: user, content: "one"}, {role: user, content: "two"}]}',
    // A YAML mapping's key order carries no meaning.
    'final_state: {messages_history_contains: [{content: "one", role: user}, {content: "echo", role: assistant}]}',
  ],
  invalid: [
    { code: 'final_state: {messages_history_contains: [{content: "one", role: assistant}]}', message: "final_state.messages_history_contains[0]" },
    { code: 'final_state: {messages_history_contains: [{role: user, content: "one", tool_call_id: x}]}', message: "final_state.messages_history_contains[0]" },
    { code: "replies: []", message: "replies" },
    { code: 'replies: [{role: assistant, content: "echo"}, {role: assistant, content: "echo"}]', message: "replies" },
    { code: "final_state: {messages_count: 3}", message: "final_state.messages_count" },
    { code: 'final_state: {messages_history_contains: [{role: user, content: "two"}, {role: user, content: "one"}]}', message: "final_state.messages_history_contains[1]" },
    { code: "pending_messages: []", message: "needs a suspended turn" },
  ],
});

const pendingChat = (first: string, arrival: string) =>
  chatCase({
    nodes:
      'compose: {update: {messages: [{role: assistant, content: "Approve?"}]}}\ngate: {suspend_with_descriptor: {signal_id: a-1, metadata: {action: send}}}\nafter: {update: {messages: [{role: assistant, content: "Sent."}]}}',
    edges: "- {from: compose, to: gate}\n- {from: gate, to: after}\n- {from: after, to: END}",
    entry: "compose",
    turns: `- name: t1\n  session_id: c-1\n  user_message: {role: user, content: "go"}\n  subscribe_listener: l1\n  expected:\n${indent(first, 4)}`,
    arrivals: `- signal_id: a-1\n  signal_payload: {approved: true}\n  expected_listener_callback:\n${indent(arrival, 4)}`,
  });

directiveTester("pending_messages / signal_descriptor (harness-chat)", {
  capability: "harness-chat",
  template: (b) => pendingChat(b, "listener: l1"),
  valid: ['outcome: suspended\npending_messages: [{role: assistant, content: "Approve?"}]\nsignal_descriptor: {signal_id: a-1, metadata: {action: send}}'],
  invalid: [
    { code: "pending_messages: []", message: "pending_messages" },
    { code: "signal_descriptor: {signal_id: a-2}", message: "signal_descriptor.signal_id" },
    { code: "signal_descriptor: {signal_id: a-1, metadata: {}}", message: "signal_descriptor.metadata" },
  ],
});

directiveTester("expected_listener_callback (harness-chat)", {
  capability: "harness-chat",
  template: (b) => pendingChat("outcome: suspended", b),
  valid: ['listener: l1\noutcome: completed\nreplies: [{role: assistant, content: "Sent."}]'],
  invalid: [
    { code: "listener: l1\noutcome: errored", message: "expected_listener_callback.outcome" },
    { code: "listener: l1\nreplies: []", message: "expected_listener_callback.replies" },
    { code: "listener: nobody", message: "no listener named 'nobody'" },
  ],
});

directiveTester("reply / error_bucket (harness-chat)", {
  capability: "harness-chat",
  template: (b) =>
    chatCase({
      nodes: 'call: {raises: {category: provider_invalid_request, message: "context too long"}}',
      edges: "- {from: call, to: END}",
      entry: "call",
      turns: `- name: t1\n  session_id: c-1\n  user_message: {role: user, content: "x"}\n  expected:\n${indent(b, 4)}`,
    }),
  valid: ['outcome: errored\nerror_bucket: user_correctable\nerror_category: provider_invalid_request\nreply: {role: system, content_includes: ["context too long", "adjust your message"]}'],
  invalid: [
    { code: "reply: {role: assistant}", message: "reply.role" },
    { code: 'reply: {content_matches_template: "try again in a moment"}', message: "template fragment" },
    { code: 'reply: {content_includes: ["rate limited"]}', message: "reply.content_includes[0]" },
  ],
});

directiveTester("harness-chat named claims", {
  capability: "harness-chat",
  template: (b) =>
    chatCase({
      nodes: "noop: {update: {}}",
      edges: "- {from: noop, to: END}",
      entry: "noop",
      store: "{type: in_memory, behavior: {load_raises: session_load_failed}}",
      turns: `- name: t1\n  session_id: c-1\n  user_message: {role: user, content: "x"}\n  expected: {outcome: errored, error_category: session_load_failed}`,
      invariants: b,
    }),
  valid: ["error_bucket_routes_to_harness_section_7_1: true\nreply_role_is_system: true\nchat_harness_does_not_invoke_graph_when_session_load_fails: true"],
  invalid: [
    { code: "error_bucket_routes_to_harness_section_7_2: true", message: 'bucket "session_terminating"' },
    { code: "reply_content_includes_upstream_diagnostic: true", message: "lacks" },
    { code: "turn_2_loads_turn_1_history: true", message: "no later turn of a session" },
  ],
});
