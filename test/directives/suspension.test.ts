import { directiveTester, indent } from "./tester.ts";
import { chain, runOnce, section, subgraph, subgraphs } from "./templates.ts";

const RESUME_PREVIOUS = 'resume_invocation: "<from previous suspended outcome>"';

/** An `invocations:` entry named `name`: its `keys` (YAML), then `expected:` holding `expected`. */
const call = (name: string, keys: string, expected: string): string => `- name: ${name}\n${indent(`${keys}\n${section("expected", expected)}`, 2)}`;

/** A call that resumes the previous suspended outcome with `payload`. */
const resumeCall = (name: string, payload: string, expected: string): string => call(name, `${RESUME_PREVIOUS}\nsignal_payload: ${payload}`, expected);

/** The one-node graph a (x: 1) → END. */
const SET_X = chain("x: {type: int, default: 0}", { a: "{update: {x: 1}}" });

/** pre → gate (suspends with {signal_id: s-1, metadata: {kind: approval}}; `extra` keys besides) → next → END. */
const gateGraph = (extra: string): string =>
  chain("approved: {type: bool, default: false}\ndone: {type: bool, default: false}\nlog: {type: list, reducer: append, default: []}", {
    pre: "{update: {log: [pre]}}",
    gate: [extra, "suspend_with_descriptor: {signal_id: s-1, metadata: {kind: approval}}"].filter((k) => k !== "").join("\n"),
    next: "{update: {done: true}}",
  });

/** gate suspends (descriptor {signal_id: s-1, metadata: {kind: approval}}) → next → END; `first` goes under the first call's expected. */
const suspendResume = (first: string, resume = "outcome: completed", payload = "{approved: true}", extra = ""): string => `
cases:
  - name: c
${indent(gateGraph(extra), 4)}
    observers:
      - {name: obs, attach: graph, target: outer, behavior: record}
${indent(section("invocations", [call("first", "initial_state: {}", first), resumeCall("second", payload, resume)].join("\n")), 4)}
`;

directiveTester("descriptor", {
  capability: "suspension",
  template: (b) => suspendResume(b),
  valid: [
    "descriptor: {signal_id: s-1, metadata: {kind: approval}}",
    "descriptor: {signal_id: s-1, metadata_includes: {kind: approval}}",
    "descriptor: {signal_id: s-1}",
  ],
  invalid: [
    { code: "descriptor: {signal_id: s-2}", message: 'descriptor.signal_id: expected "s-2", got "s-1"' },
    { code: "descriptor: {signal_id: s-1, metadata: {}}", message: "descriptor.metadata" },
    { code: "descriptor: {signal_id: s-1, metadata_includes: {kind: review}}", message: "descriptor.metadata_includes.kind" },
    { code: "descriptor: {signal_id: s-1, metadata: {}, metadata_includes: {}}", category: "fixture_schema_invalid", message: "descriptor" },
  ],
});

directiveTester("descriptor on a call that did not suspend", {
  capability: "suspension",
  template: (b) => suspendResume("outcome: suspended", b),
  valid: [],
  invalid: [{ code: "descriptor: {signal_id: s-1}", message: "expected a suspended outcome, but it completed" }],
});

directiveTester("suspending_node / suspended_state", {
  capability: "suspension",
  template: (b) => suspendResume(b),
  valid: ["suspending_node: gate\nsuspended_state: {approved: false, done: false, log: [pre]}"],
  invalid: [
    { code: "suspending_node: pre", message: 'suspending_node: expected "pre", got "gate"' },
    { code: "suspended_state: {approved: false, done: false, log: []}", message: "suspended_state.log" },
    { code: "suspended_state: {approved: false, log: [pre]}", message: "suspended_state" },
  ],
});

directiveTester("resume (signal_payload merge, reused invocation id)", {
  capability: "suspension",
  template: (b) => suspendResume("outcome: suspended", b),
  valid: ["outcome: completed\nfinal_state: {approved: true, done: true, log: [pre]}\nexecution_order: [next]"],
  invalid: [
    { code: "final_state: {approved: false, done: true, log: [pre]}", message: "final_state.approved" },
    { code: "execution_order: [gate, next]", message: "execution_order" },
  ],
});

directiveTester("resume errors (suspension §9 categories)", {
  capability: "suspension",
  template: (b) => suspendResume("outcome: suspended", b, "{approved: not_a_bool}"),
  valid: ["outcome: errored\nerror: {category: suspension_resume_payload_invalid}"],
  invalid: [{ code: "error: {category: suspension_record_invalid}", message: 'expected "suspension_record_invalid", got "suspension_resume_payload_invalid"' }],
});

directiveTester("resume_invocation placeholder that resolves to nothing", {
  capability: "suspension",
  template: () => `\n${SET_X}\n${section("invocations", resumeCall("only", "{}", "{outcome: errored}"))}\n`,
  valid: [],
  invalid: [{ code: "", category: "fixture_schema_invalid", message: "cannot resolve '<from previous suspended outcome>'" }],
});

directiveTester("started_followed_by_suspended_in_order / no_completed_event_for_suspending_node", {
  capability: "suspension",
  template: (b) => suspendResume(`observer_event_invariants:\n${indent(b, 2)}`),
  valid: ["started_followed_by_suspended_in_order: true\nno_completed_event_for_suspending_node: true\nsuspended_event_carries_descriptor: true"],
  invalid: [
    { code: "started_followed_by_suspended_in_order: false", message: "observer_event_invariants.started_followed_by_suspended_in_order: expected false, got true" },
    { code: "no_completed_event_for_suspending_node: false", message: "expected false, got true" },
  ],
});

directiveTester("no_completed_event_for_suspending_node on a call without a suspension", {
  capability: "suspension",
  template: (b) => suspendResume("outcome: suspended", `observer_event_invariants:\n${indent(b, 2)}`),
  valid: ["no_completed_event_for_suspending_node: false"],
  invalid: [
    { code: "no_completed_event_for_suspending_node: true", message: "no suspended event was observed" },
    { code: "started_followed_by_suspended_in_order: true", message: "no suspended event was observed" },
  ],
});

directiveTester("middleware_log_captured", {
  capability: "suspension",
  template: (b) => suspendResume(b, "outcome: completed", "{}", "wrap_with_middleware:\n  - {name: outer, pre_log: o_pre, post_log: o_post}\n  - {name: inner, pre_log: i_pre, post_log: i_post}"),
  valid: ["middleware_log_captured: [o_pre, i_pre]"],
  invalid: [
    { code: "middleware_log_captured: [o_pre, i_pre, i_post, o_post]", message: "middleware_log_captured" },
    { code: "middleware_log_captured: [i_pre, o_pre]", message: "middleware_log_captured[0]" },
  ],
});

directiveTester("checkpointer_assertions", {
  capability: "suspension",
  template: (b) => suspendResume(b),
  valid: ["checkpointer_assertions: {paused_invocation_record_exists: true, record_type: suspended}"],
  invalid: [
    { code: "checkpointer_assertions: {record_type: checkpoint}", message: 'checkpointer_assertions.record_type: expected "checkpoint", got "suspended"' },
    { code: "checkpointer_assertions: {paused_invocation_record_exists: false}", message: "checkpointer_assertions.paused_invocation_record_exists" },
    { code: "checkpointer_assertions: {colour: red}", category: "fixture_schema_invalid", message: "colour" },
  ],
});

/** gate → END, where gate's middleware suspends before calling next; `expected:` holds `expected`. */
const middlewareSuspend = (expected: string): string =>
  runOnce(
    chain("ran: {type: bool, default: false}", {
      gate: "wrap_with_middleware:\n  - {name: m, pre_next_calls_suspend_with_descriptor: {signal_id: x}}\nupdate: {ran: true}",
    }),
    expected,
  );

directiveTester("final_state_at_error (suspend from middleware)", {
  capability: "suspension",
  template: middlewareSuspend,
  valid: ["outcome: errored\nerror: {category: suspension_in_unsupported_context}\nfinal_state_at_error: {ran: false}"],
  invalid: [
    { code: "final_state_at_error: {ran: true}", message: "final_state_at_error.ran" },
    { code: "outcome: suspended", message: "expected suspended, but it errored with suspension_in_unsupported_context" },
  ],
});

/** A claims block for the two-call case. */
const claims = (block: string): string => suspendResume("outcome: suspended", "outcome: completed", "{approved: true, log: [payload]}", "") + `    invariants:\n${indent(block, 6)}\n`;

directiveTester("suspension named claims (001 / 002)", {
  capability: "suspension",
  template: claims,
  valid: [
    "suspend_returns_suspended_outcome: true\nresume_merges_signal_payload: true\nresume_continues_after_suspending_node: true\nsignal_payload_overwrites_field_directly: true\nreducer_not_consulted_on_signal_merge: true",
  ],
  invalid: [
    { code: "suspend_returns_suspended_outcome: false", message: "invariants.suspend_returns_suspended_outcome: expected false, got true" },
    { code: "resume_continues_after_suspending_node: false", message: "expected false, got true" },
    { code: "reducer_not_consulted_on_signal_merge: false", message: "expected false, got true" },
  ],
});

directiveTester("resume_merges_signal_payload without a resume", {
  capability: "suspension",
  template: (b) => `\n${SET_X}\n${section("invocations", call("only", "initial_state: {}", "{outcome: completed}"))}\n${section("invariants", b)}\n`,
  valid: ["resume_merges_signal_payload: false"],
  invalid: [{ code: "resume_merges_signal_payload: true", message: "no suspension resume in the block" }],
});

/** dispatcher runs branch alpha (which suspends) and beta in parallel; `expected:` holds `outcome: suspended` and `block`. */
const branches = (block: string): string =>
  runOnce(
    [
      subgraphs({
        alpha: chain("a_out: {type: int, default: 0}", { a: "{suspend_with_descriptor: {signal_id: alpha, metadata: {kind: approval}}}" }),
        beta: chain("b_out: {type: int, default: 0}", { b: "{update: {b_out: 99}}" }),
      }),
      chain("a_result: {type: int, default: 0}\nb_result: {type: int, default: 0}", {
        dispatcher: "parallel_branches:\n  branches:\n    alpha: {subgraph: alpha, outputs: {a_result: a_out}}\n    beta: {subgraph: beta, outputs: {b_result: b_out}}",
      }),
    ].join("\n"),
    `outcome: suspended\n${block}`,
  );

directiveTester("parallel-branches suspension (008 claims)", {
  capability: "suspension",
  template: branches,
  valid: [
    "suspending_node: dispatcher\ndescriptor: {signal_id: alpha, metadata: {kind: approval, branch_name: alpha}}\ninvariants:\n  single_branch_suspend_suspends_whole_parallel_branches: true\n  siblings_cancelled_under_fail_fast: true\n  descriptor_carries_branch_name: true",
  ],
  invalid: [
    { code: "descriptor: {signal_id: alpha, metadata: {kind: approval}}", message: "descriptor.metadata" },
    { code: "invariants: {siblings_cancelled_under_fail_fast: false}", message: "expected false, got true" },
    { code: "invariants: {descriptor_carries_branch_name: false}", message: "expected false, got true" },
  ],
});

/** A fan-out over [0, 1, 2] whose instance 1 suspends, then next; `block` goes under the first call's expected. */
const conditional = (block: string): string => `
${subgraph(
  "leaf",
  chain("item_idx: {type: int, default: 0}\ndoubled: {type: int, default: 0}", {
    work: "conditional_suspend:\n  suspend_on_item_index: 1\n  descriptor: {signal_id: needs-review, metadata: {kind: review}}\n  on_other_indices: {update_from_field: {doubled: item_idx, multiplier: 2}}",
  }),
)}
${chain("items: {type: list<int>, default: [0, 1, 2]}\nresults: {type: list<int>, reducer: append, default: []}\nafter: {type: bool, default: false}", {
  fan: "{fan_out: {subgraph: leaf, items_field: items, item_field: item_idx, collect_field: doubled, target_field: results}}",
  next: "{update: {after: true}}",
})}
${section(
  "invocations",
  [
    call("first", "initial_state: {}", `outcome: suspended\n${block}`),
    resumeCall("resume", "{}", "outcome: completed\nfinal_state: {items: [0, 1, 2], results: [], after: true}\nexecution_order: [next]"),
  ].join("\n"),
)}
`;

directiveTester("conditional_suspend (fan-out instance, §8.2)", {
  capability: "suspension",
  template: conditional,
  valid: [
    "suspending_node: fan\ndescriptor: {signal_id: needs-review, metadata_includes: {kind: review, fan_out_index: 1}}\nsuspended_state: {items: [0, 1, 2], results: [], after: false}",
    // The 008 claim by its plain meaning on a fan-out (§8.2): no sibling instance's result was merged.
    "invariants: {siblings_cancelled_under_fail_fast: true}",
  ],
  invalid: [
    { code: "invariants: {siblings_cancelled_under_fail_fast: false}", message: "expected false, got true" },
    { code: "descriptor: {signal_id: needs-review, metadata_includes: {fan_out_index: 0}}", message: "descriptor.metadata_includes.fan_out_index: expected 0, got 1" },
    { code: "suspending_node: work", message: 'suspending_node: expected "work", got "fan"' },
  ],
});

directiveTester("wrap_with_middleware on a completing node (both markers)", {
  capability: "suspension",
  template: (b) => runOnce(chain("x: {type: int, default: 0}", { a: "wrap_with_middleware: [{name: m, pre_log: pre, post_log: post}]\nupdate: {x: 1}" }), b),
  valid: ["middleware_log_captured: [pre, post]"],
  invalid: [{ code: "middleware_log_captured: [pre]", message: "middleware_log_captured" }],
});

// The 008 claims by their plain meaning where 008 never puts them: the parallel-branches node inside
// a subgraph (the outer node `wrap` runs subgraph `holder`, whose node `dispatcher` is the composite).
const nestedBranches = (block: string, betaUpdate = "{update: {b_out: 99}}"): string =>
  runOnce(
    [
      subgraphs({
        alpha: chain("a_out: {type: int, default: 0}", { a: "{suspend_with_descriptor: {signal_id: alpha, metadata: {kind: approval}}}" }),
        beta: chain("b_out: {type: int, default: 0}", { b: betaUpdate }),
        holder: chain("a_result: {type: int, default: 0}\nb_result: {type: int, default: 5}", {
          dispatcher: "parallel_branches:\n  branches:\n    alpha: {subgraph: alpha, outputs: {a_result: a_out}}\n    beta: {subgraph: beta, outputs: {b_result: b_out}}",
        }),
      }),
      chain("done: {type: bool, default: false}", { wrap: "{subgraph: holder}" }),
    ].join("\n"),
    `outcome: suspended\n${block}`,
  );

directiveTester("parallel-branches suspension inside a subgraph (008 claims, nested)", {
  capability: "suspension",
  template: nestedBranches,
  valid: [
    "suspending_node: wrap\ndescriptor: {signal_id: alpha, metadata: {kind: approval, branch_name: alpha}}\ninvariants:\n  single_branch_suspend_suspends_whole_parallel_branches: true\n  siblings_cancelled_under_fail_fast: true\n  descriptor_carries_branch_name: true",
  ],
  invalid: [
    { code: "invariants: {single_branch_suspend_suspends_whole_parallel_branches: false}", message: "expected false, got true" },
    { code: "invariants: {siblings_cancelled_under_fail_fast: false}", message: "expected false, got true" },
  ],
});

directiveTester("a suspension outside any parallel-branches node (008 claims do not hold)", {
  capability: "suspension",
  template: (b) =>
    runOnce(
      [subgraphs({ holder: chain("x: {type: int, default: 0}", { s: "{suspend_with_descriptor: {signal_id: plain, metadata: {}}}" }) }), chain("done: {type: bool, default: false}", { wrap: "{subgraph: holder}" })].join("\n"),
      `outcome: suspended\n${b}`,
    ),
  valid: ["invariants: {single_branch_suspend_suspends_whole_parallel_branches: false}", "invariants: {siblings_cancelled_under_fail_fast: false}"],
  invalid: [
    { code: "invariants: {single_branch_suspend_suspends_whole_parallel_branches: true}", message: "single_branch_suspend_suspends_whole_parallel_branches" },
    { code: "invariants: {siblings_cancelled_under_fail_fast: true}", message: "no suspended parallel-branches or fan-out call" },
  ],
});
