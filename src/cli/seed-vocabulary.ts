/**
 * The directives conformance-adapter 0.120.1 §5 (the seed) defines, walked section by section, as
 * rows for the inventory in docs/vocabulary.md. Each row names the key, the §5 section, the
 * position(s) it sits at in this adapter's terms, and the definition home when the seed places the
 * definition in a directory's note. A row's status is not written here: it is computed from the
 * registry (see vocabulary-doc.ts), so the table can claim neither more nor less than the adapter
 * recognizes — there is no hand-kept "waits for" text to go stale.
 *
 * Row kinds:
 * - a directive: `name` at each of `at`;
 * - a sub-key: `key` inside the value of directive `of` (checked against that directive's schema,
 *   or — `via` — as a directive at the position the container resolves its other keys at);
 * - structural: a key the fixture model or interpreter handles itself (`cases`, `graph`, ...).
 *
 * `gap` records a known shortfall of a recognized directive (measured, e.g. a failing upstream
 * fixture); it makes the row "partly". `home` is set when the seed places the definition in a
 * directory's note rather than §5 itself (e.g. §5.8's position table, or a key §5 calls a
 * "per-directory extension (per §3.2)"); without it the definition is general and must be
 * recognized in every directory.
 */
export interface SeedRow {
  readonly section: string;
  readonly name: string;
  readonly at?: ReadonlyArray<string>;
  readonly of?: string;
  readonly key?: string;
  readonly structural?: boolean;
  readonly home?: string;
  readonly gap?: string;
  /** A sub-key the directive resolves as a directive at this position (not through its schema). */
  readonly via?: string;
  /** One sample value per form the seed defines; each must pass the directive's schema. */
  readonly forms?: ReadonlyArray<unknown>;
}

const d = (section: string, name: string, at: string | string[], extra: Partial<SeedRow> = {}): SeedRow => ({
  section,
  name,
  at: typeof at === "string" ? [at] : at,
  ...extra,
});
const sub = (section: string, of: string, at: string, keys: string[], extra: Partial<SeedRow> = {}): SeedRow[] =>
  keys.map((key) => ({ section, name: `${of}.${key}`, of, at: [at], key, ...extra }));
const many = (section: string, at: string | string[], names: string[], extra: Partial<SeedRow> = {}): SeedRow[] => names.map((name) => d(section, name, at, extra));

const ROWS: ReadonlyArray<SeedRow> = [
  // §5 preamble: assertion positions
  // capture_as binds a label at a prompt-management call; the labels it declares are asserted under expected:.
  d("5", "capture_as", "prompt_call", { home: "prompt-management" }),
  // §5.1 Node behavior
  d("5.1", "update", "node"),
  d("5.1", "update_pure", "node"),
  d("5.1", "update_from_field", "node"),
  ...sub("5.1", "update_from_field", "node", ["multiplier"]),
  // "per-directory harness extension (per §3.2)" of observability.
  d("5.1", "update_pure_from_state", "node", { home: "observability" }),
  d("5.1", "raises", "node"),
  d("5.1", "suspend_with_descriptor", "node"),
  ...sub("5.1", "suspend_with_descriptor", "node", ["signal_id", "metadata", "mark_node_completed"]),
  d("5.1", "conditional_suspend", "node"),
  ...sub("5.1", "conditional_suspend", "node", ["suspend_on_item_index", "descriptor", "on_other_indices"]),
  d("5.1", "invoke_drain_events_for", "node"),
  ...sub("5.1", "invoke_drain_events_for", "node", ["timeout_seconds", "snapshot_observer"]),
  d("5.1", "wrap_with_middleware", "node"),
  ...sub("5.1", "wrap_with_middleware", "node", ["name", "pre_log", "post_log", "pre_next_calls_suspend_with_descriptor"]),
  ...many("5.1", "node", ["calls_llm", "calls_llm_from_wrapper", "augment_metadata", "augment_metadata_from_field", "capture_invocation_metadata_into"]),
  ...sub("5.1", "calls_llm", "node", ["model", "response_schema", "config", "retry"]),
  // The message synthesis forms, in place of a message's content / an inline image's base64_data.
  d("5.1", "calls_llm (content_repeat, base64_data_synthetic)", "node", {
    forms: [
      { messages: [{ role: "user", content_repeat: { char: "a", bytes: 70000 } }] },
      { messages: [{ role: "user", content: [{ type: "image", source: { type: "inline", base64_data_synthetic: { bytes: 128 } } }] }] },
    ],
  }),
  ...sub("5.1", "flaky", "node", ["cause"]),
  d("5.1", "flaky", "node"),
  ...sub("5.1", "flaky", "node", ["failure_sequence", "success_update", "fail_first_invocation_only", "on_success"]),
  ...sub("5.1", "flaky", "node", ["transient", "category", "message"]),
  d("5.1", "flaky_by_index", "node"),
  ...sub("5.1", "flaky_by_index", "node", ["fail_when_idx", "fail_count_per_idx", "success_compute"]),
  d("5.1", "flaky_per_index", "node"),
  ...sub("5.1", "flaky_per_index", "node", ["fail_first_run_indices", "always_fail_indices", "success_compute"]),
  d("5.1", "flaky_instance_only", "node"),
  ...sub("5.1", "flaky_instance_only", "node", ["fail_count_per_instance", "category", "success_compute"]),
  d("5.1", "flaky_resume_aware", "node"),
  ...sub("5.1", "flaky_resume_aware", "node", ["fail_first_invocation_count", "fail_resumed_invocation_count", "category", "on_success"]),
  // §5.2 State / schema
  d("5.2", "state", ["case", "subgraph"]),
  ...sub("5.2", "state", "case", ["fields", "type", "default", "reducer"]),
  // §5.3 Edges
  d("5.3", "edges", ["case", "subgraph"]),
  ...sub("5.3", "edges", "case", ["from", "to", "condition", "if_field", "equals", "then", "else"]),
  // §5.4 Composition
  d("5.4", "subgraph", "node"),
  { section: "5.4", name: "subgraph (declaration)", structural: true },
  { section: "5.4", name: "subgraphs", structural: true },
  { section: "5.4", name: "graph", structural: true },
  d("5.4", "fan_out", "node"),
  ...sub("5.4", "fan_out", "node", ["subgraph", "items_field", "count", "item_field", "collect_field", "target_field", "error_policy", "concurrency", "concurrent_mode"]),
  d("5.4", "parallel_branches", "node"),
  ...sub("5.4", "parallel_branches", "node", ["branches", "outputs", "error_policy"]),
  // §5.5 Observers
  d("5.5", "observers", "case"),
  ...sub("5.5", "observers", "case", ["name", "attach", "target", "behavior", "sleep_ms_per_event", "phases"]),
  // "Case-level observability harness keys — per-directory extensions (per §3.2)".
  ...many("5.5", "case", ["mock_llm", "disable_llm_spans", "caller_global_otel_active"], { home: "observability" }),
  ...many("5.5", "case", ["langfuse_client", "langfuse_observer", "otel_observer", "expected_construction_error"]),
  ...many("5.5", "expected", ["log_records", "log_records_absent", "no_payload_bearing_langfuse_observations_on_global", "payload_bearing_langfuse_observations_on_global"]),
  d("5.5", "typed_observers", "case"),
  // The collector assertions sit in expected.observers.<collector> (this adapter's `collector` position).
  ...many("5.5", "collector", [
    "contains_event",
    "contains_event_of_type",
    "contains_exactly_one_event_of_type",
    "event_count",
    "event_counts",
    "contains_events_in_order",
    "every_captured_event_has",
    "captured_event_field_values_cover",
    "relative_order_of_events_matching",
  ]),
  d("5.5", "node_completed_event_carries_error", "expected"),
  // §5.6 Persistence
  d("5.6", "session_store", "case"),
  d("5.6", "checkpointer", "case"),
  d("5.6", "loaded_session_state", "expected"),
  d("5.6", "saved_session_assertions", "expected"),
  ...sub("5.6", "saved_session_assertions", "expected", ["state", "schema_version"]),
  d("5.6", "checkpointer_assertions", "expected"),
  ...sub("5.6", "checkpointer_assertions", "expected", ["record_type"]),
  d("5.6", "migrations_run", "expected"),
  d("5.6", "session_store_load_calls", "expected"),
  d("5.6", "session_store_save_calls", "expected"),
  d("5.6", "populate_checkpointer_via_runs", "case"),
  d("5.6", "first_run_expected_error", "case"),
  d("5.6", "first_run_expected", "case"),
  d("5.6", "resume", "case"),
  ...sub("5.6", "resume", "case", ["from_first_run"]),
  ...sub("5.6", "resume", "case", ["expected", "invariants"], { via: "invocation" }),
  d("5.6", "crash_injection", "case"),
  ...sub("5.6", "crash_injection", "case", ["after_node", "after_fan_out_instance"]),
  // §5.7 Invocation shape
  d("5.7", "initial_state", ["case", "invocation"]),
  d("5.7", "caller_metadata", ["case", "invocation"]),
  d("5.7", "caller_correlation_id", "case"),
  d("5.7", "caller_invocation_id", ["case", "invocation"]),
  d("5.7", "invoke", "case"),
  d("5.7", "invoke_with", "case"),
  d("5.7", "drain", ["invoke", "invocation"]),
  d("5.7", "resume_invocation", ["invoke", "invocation"]),
  d("5.7", "invocations", "case"),
  d("5.7", "session_id", "invocation"),
  d("5.7", "correlation_id", "invocation"),
  d("5.7", "signal_payload", "invocation"),
  d("5.7", "expected", ["case", "invocation"]),
  d("5.7", "run_count", "case"),
  // §5.8 Expected outcome — state
  d("5.8", "final_state", "expected"),
  d("5.8", "final_state_bounds", "expected"),
  d("5.8", "execution_order", "expected"),
  d("5.8", "suspended_state", "expected"),
  d("5.8", "final_state_at_error", "expected"),
  // raised errors
  d("5.8", "outcome", "expected"),
  d("5.8", "error", "expected"),
  d("5.8", "expected_error", ["case", "invocation"]),
  ...sub("5.8", "expected_error", "case", ["category", "message", "cause_message", "raised_from", "recoverable_state", "cause", "raised_at", "carries"]),
  // prompt-management resolves a call's expected: keys at its own position (prompt_call_expected).
  d("5.8", "raises", ["expected", "prompt_call_expected"], { forms: [{ category: "structured_output_invalid", carries: { output_content: "x", finish_reason_present: true } }, { category: "prompt_render_error" }] }),
  d("5.8", "expected_compile_error", "case"),
  d("5.8", "expected_compile_warning", "case"),
  // suspension
  d("5.8", "descriptor", "expected"),
  ...sub("5.8", "descriptor", "expected", ["signal_id", "metadata", "metadata_includes"]),
  d("5.8", "suspending_node", "expected"),
  // observer events and drains
  d("5.8", "observer_events", "expected"),
  d("5.8", "delivery_order", "expected"),
  d("5.8", "observer_event_invariants", "expected"),
  d("5.8", "middleware_log_captured", "expected"),
  d("5.8", "drain_summary", "expected"),
  ...sub("5.8", "drain_summary", "expected", ["timeout_reached", "undelivered_count", "undelivered_count_min"]),
  d("5.8", "node_drain_summaries", "expected"),
  d("5.8", "node_accumulator_snapshots", "expected"),
  d("5.8", "node_accumulator_snapshot_invariants", "expected"),
  d("5.8", "final_accumulator_state", "expected"),
  // spans, traces, metrics
  ...many("5.8", "expected", ["span_tree", "traces", "metrics"]),
  // "Per-shape definitions live in observability's Langfuse note": the family, recognized when any langfuse_* assertion is.
  d("5.8", "langfuse_*", "expected", { home: "observability" }),
  // checkpoint records
  d("5.8", "saved_record_assertions", "case"),
  ...sub("5.8", "saved_record_assertions", "case", ["invocation_id", "correlation_id", "schema_version", "last_saved_at", "state", "completed_positions", "parent_states", "fan_out_progress"]),
  d("5.8", "every_save_assertions", "case", { home: "pipeline-utilities" }),
  d("5.8", "latest_record_assertions", "case", { home: "pipeline-utilities" }),
  d("5.8", "checkpoint_saves", "expected", { home: "pipeline-utilities" }),
  d("5.8", "instances_executed_during_resume", "expected"),
  d("5.8", "instances_skipped_during_resume", "expected"),
  // harness turn outcomes
  ...many("5.8", "expected", ["dispatch_path", "error_bucket", "error_category"]),
  // §5.8 position table
  // Document-root keys resolve at the case position (shared by every case).
  // §6.8's caching prompt backend is a prompt-management harness primitive.
  d("5.8", "expected_backend_state", "case", { home: "prompt-management" }),
  // "The document root of an llm-provider calls: document (llm-provider's note)": document keys resolve at `case`.
  d("5.8", "expected_wire_bytes_identical", "case", { home: "llm-provider" }),
  d("5.8", "expected_chain_ambiguity_error", ["case", "invocation"], { home: "pipeline-utilities" }),
  d("5.8", "expected_failure_isolation_event", "expected", { home: "pipeline-utilities" }),
  d("5.8", "expected_attempt_events", "expected", { home: "pipeline-utilities" }),
  d("5.8", "expected_observer_event", "expected", { home: "pipeline-utilities" }),
  ...sub("5.8", "expected_failure_isolation_event", "expected", ["caught_exception"], { home: "pipeline-utilities" }),
  d("5.8", "expected_shared_prefix", "case", { home: "prompt-management" }),
  d("5.8", "expected_message_equal", "case", { home: "prompt-management" }),
  // "Inside a signal arrival (harness-chat's note)".
  d("5.8", "expected_listener_callback", "signal_arrival", { home: "harness-chat" }),
  // §5.9 Invariants
  d("5.9", "invariants", ["case", "invocation"]),
  d("5.9", "inner_event_count", "invariant"),
  d("5.9", "inner_fan_out_indices_seen", "invariant"),
  d("5.9", "inner_branch_names_seen", "invariant"),
  d("5.9", "<node>_node_events_count", "invariant"),
  d("5.9", "<node>_node_fan_out_index_absent", "invariant"),
  d("5.9", "inner_event_identities_unique", "invariant"),
  d("5.9", "started_followed_by_suspended_in_order", "invariant"),
  d("5.9", "no_completed_event_for_suspending_node", "invariant"),
  d("5.9", "drain_returned_within_timeout", "invariant"),
  d("5.9", "workers_not_cancelled_on_per_invocation_drain_timeout", "invariant"),
  // §5.11–§5.16 provider directives
  ...many("5.11", "case", ["mock_provider", "call"]),
  // call: resolves its keys at the llm_call position; §5.11 defines the retry record's two adaptive fields.
  ...sub("5.11", "call", "case", ["retry"], { via: "llm_call" }),
  ...sub("5.11", "retry", "llm_call", ["per_attempt_override", "reask"]),
  ...many("5.11", "expected", ["wire_requests", "llm_spans"]),
  // §5.12: the llm-provider structured_output_invalid keys of a raises carries block (§5.13's convention).
  d("5.12", "raises (structured_output_invalid carries)", "expected", {
    forms: [
      {
        category: "structured_output_invalid",
        carries: { response_schema_present: true, output_content: "x", error_message_present: true, error_message_mentions: ["a", "b"], finish_reason: "stop", usage: { prompt_tokens: 1 } },
      },
      { category: "structured_output_invalid", carries: { error_message_mentions: "a" } },
    ],
  }),
  // §5.14: chunk_size is a field of an embedding / rerank provider construction block.
  ...["tei_embedding_provider", "tei_rerank_provider", "openai_embedding_provider", "cohere_embedding_provider", "cohere_rerank_provider"].flatMap((of) => sub("5.14", of, "case", ["chunk_size"])),
  ...many("5.15", "case", [
    "tei_embedding_provider",
    "tei_rerank_provider",
    "jina_embedding_provider",
    "jina_rerank_provider",
    "openai_embedding_provider",
    "cohere_embedding_provider",
    "cohere_rerank_provider",
    "mapping",
    "mock_embedding",
    "mock_rerank",
  ]),
  ...many("5.15", "node", ["calls_embed", "calls_rerank"]),
  ...many("5.15", "invariant", ["no_embed_request_issued", "no_rerank_request_issued"]),
  ...many("5.16", "case", [
    "expected_wire_request",
    "expected_wire_request_includes",
    "expected_wire_request_absent_keys",
    "expected_wire_headers",
    "expected_wire_request_count",
    "expected_wire_url",
  ]),
  // §5.17 Capability gates
  { section: "5.17", name: "requires_capability", structural: true },
];

/**
 * Sample values of the forms §5 writes for a directive (its examples, each alternative spelled out:
 * scalar and list, mapping and null, every sub-form). A form its schema rejects makes the row partly.
 */
const FORMS: Readonly<Record<string, ReadonlyArray<unknown>>> = {
  update: [{ x: 1 }],
  update_pure: [{ x: [1] }],
  update_from_field: [{ y: "x", multiplier: 2 }, { y: "x" }],
  raises: ["boom"],
  call: [{ operation: "complete", messages: [{ role: "user", content: "hi" }], retry: { max_attempts: 2, per_attempt_override: [{ temperature: 0.3 }], reask: { template: "{error_message}" } } }],
  // §5.15's retrieval mappings and the llm-provider ones (§5.16: mapping: gemini).
  mapping: ["tei", "jina", "openai", "cohere", "anthropic", "gemini"],
  suspend_with_descriptor: [{ signal_id: "s", metadata: { a: 1 } }, { signal_id: "s", metadata: {}, mark_node_completed: false }],
  conditional_suspend: [{ suspend_on_item_index: 1, descriptor: { signal_id: "s", metadata: {} }, on_other_indices: { update_from_field: { y: "x" } } }],
  invoke_drain_events_for: [{ timeout_seconds: 0.5, snapshot_observer: "o" }],
  wrap_with_middleware: [[{ name: "m", pre_log: "a", post_log: "b" }], [{ name: "m", pre_next_calls_suspend_with_descriptor: { signal_id: "s", metadata: {} } }]],
  flaky: [
    { failure_sequence: [{ transient: true, category: "provider_rate_limit", message: "429" }, null], success_update: { x: 1 } },
    { failure_sequence: [{ transient: false, category: null, message: null }], success_update: { x: "y" } },
    { failure_sequence: [{ transient: false, category: "c", message: "m", cause: { category: null, message: "m2", cause: { category: "c3", message: "m3" } } }], success_update: {} },
    { fail_first_invocation_only: true, on_success: { x: 1 } },
  ],
  flaky_by_index: [{ fail_when_idx: 2, success_compute: { y: "x" } }, { fail_count_per_idx: 1, success_compute: { y: "x" } }],
  flaky_per_index: [{ fail_first_run_indices: [1], success_compute: { y: "x" } }, { always_fail_indices: [0], success_compute: { y: "x" } }],
  flaky_instance_only: [{ fail_count_per_instance: 1, category: "c", success_compute: { y: "x" } }],
  flaky_resume_aware: [{ fail_first_invocation_count: 1, fail_resumed_invocation_count: 2, category: "c", on_success: { x: 1 } }],
  state: [
    { fields: { n: { type: "int", default: 0 }, xs: { type: "list<string>", reducer: "append", default: [] }, d: { type: "dict<string,int>" }, a: { type: "any" } } },
    { fields: { l: { type: "list" }, f: { type: "float" }, b: { type: "bool" }, s: { type: "string" } } },
    { fields: { es: { type: "list<error_entry>", reducer: "append", default: [] }, m: { type: "dict<string,point>", default: {} } }, records: { point: { fields: { x: { type: "int" } } } } },
  ],
  edges: [[{ from: "a", to: "END" }], [{ from: "a", condition: { if_field: "x", equals: 1, then: "END", else: "a" } }]],
  subgraph: ["inner"],
  fan_out: [
    { subgraph: "s", items_field: "xs", item_field: "x", collect_field: "y", target_field: "ys", error_policy: "collect", concurrency: 2, concurrent_mode: "serial" },
    { subgraph: "s", count: 3, collect_field: "y", target_field: "ys", error_policy: "fail_fast", concurrent_mode: "concurrent" },
  ],
  parallel_branches: [{ branches: { b: { subgraph: "s", outputs: { o: "i" } } }, error_policy: "fail_fast" }, { branches: { b: { subgraph: "s" } }, error_policy: "collect" }],
  observers: [
    [{ name: "o", attach: "graph", target: "outer", behavior: "record" }],
    [{ name: "o", attach: "invocation", target: "inner", behavior: "accumulate", phases: ["started"] }],
    [{ name: "o", attach: "graph", target: "s", behavior: "raise", sleep_ms_per_event: 5 }],
    [{ name: "o", attach: "graph", target: "outer", behavior: "record", sleep_ms_per_event: { first_invocation: 50, subsequent_invocations: 0 } }],
  ],
  session_store: ["in_memory"],
  checkpointer: ["in_memory"],
  loaded_session_state: [{ x: 1 }, null],
  saved_session_assertions: [{ state: { x: 1 } }, { state: {}, schema_version: "2" }],
  checkpointer_assertions: [{ record_type: "suspended" }, { record_type: "checkpoint" }],
  session_store_load_calls: [1],
  session_store_save_calls: [0],
  populate_checkpointer_via_runs: [2],
  first_run_expected_error: [{ category: "node_exception", raised_from: "a" }],
  first_run_expected: [{ final_state: {} }],
  resume: [{ from_first_run: true, expected: { final_state: {} }, invariants: { inner_event_count: 2 } }],
  crash_injection: [{ after_node: "a" }, { after_fan_out_instance: { node: "f", index: 1 } }],
  initial_state: [{ x: 1 }, {}],
  caller_correlation_id: ["c-1"],
  caller_invocation_id: ["i-1"],
  invoke: [{ drain: { timeout_seconds: 1.5 } }, { drain: {} }, { resume_invocation: "<invocation_id from initial completed invoke>" }],
  invoke_with: [{ drain: { timeout_seconds: 1 } }],
  drain: [{ timeout_seconds: 0.25 }, {}],
  resume_invocation: ["<from previous suspended outcome>"],
  invocations: [[{ name: "a", initial_state: {}, expected: {} }]],
  session_id: ["s-1"],
  signal_payload: [{ approved: true }],
  run_count: [3],
  final_state: [{ x: 1 }],
  final_state_bounds: [{ x: { min: 0, max: 1 } }, { x: { min: 0 } }, { x: { max: 9.5 } }],
  execution_order: [["a", "b", "a"], []],
  suspended_state: [{ x: 1 }],
  final_state_at_error: [{ x: 1 }],
  outcome: ["completed", "errored", "suspended"],
  error: [{ category: "node_exception" }],
  expected_error: [
    { category: "node_exception", message: "boom", cause_message: "inner", raised_from: "a", recoverable_state: { x: 1 } },
    { category: "c", cause: { raised_by_mock: "a" } },
    { category: "c", raised_at: "registration" },
    { category: "c", carries: { registered_migrations_count: 2, message_mentions: ["a", "b"], detail_present: true } },
  ],
  expected_chain_ambiguity_error: [{ from_version: "v1", to_version: "v2", raised_at: "registration" }, { from_version: null, to_version: "v3" }, {}],
  node_completed_event_carries_error: [{ node_name: "ask", error_category: "provider_unavailable" }],
  expected_compile_error: ["no_declared_entry"],
  expected_compile_warning: ["projection_reducer_round_trip", [], ["projection_reducer_round_trip"]],
  descriptor: [{ signal_id: "s", metadata: { a: 1 } }, { signal_id: "s", metadata_includes: { fan_out_index: 0 } }],
  suspending_node: ["a"],
  observer_events: [{ o: [{ phase: "started", node_name: "a", pre_state: {} }] }, { o: [] }],
  delivery_order: [[{ observer: "o", step: 1, phase: "started" }, { observer: "o", step: 1, phase: "completed", attempt_index: 0, fan_out_index: 1, branch_name: "b" }]],
  observer_event_invariants: [{ inner_event_count: 4 }],
  middleware_log_captured: [["pre", "post"], []],
  drain_summary: [{ timeout_reached: false, undelivered_count: 0 }, { timeout_reached: true, undelivered_count_min: 1 }],
  node_drain_summaries: [{ n: { timeout_reached: false, undelivered_count: 0 } }, { n: { timeout_reached: true, undelivered_count_min: 1 } }],
  node_accumulator_snapshots: [{ n: { o: [{ phase: "started" }] } }, { n: { o: [] } }],
  node_accumulator_snapshot_invariants: [{ n: { o: { inner_event_count: 2 } } }],
  final_accumulator_state: [{ o: [] }],
  saved_record_assertions: [
    { invocation_id: "<invocation_id_a>", correlation_id: "c", schema_version: "1", last_saved_at: "<timestamp>", state: {} },
    { completed_positions: [{ node: "a" }], parent_states: [{}], fan_out_progress: { f: { instance_count: 2, instances: [] } } },
  ],
  instances_executed_during_resume: [[0, 2], []],
  instances_skipped_during_resume: [[1]],
  invariants: [{ inner_event_count: 2 }],
  inner_event_count: [4],
  inner_fan_out_indices_seen: [[0, 1]],
  inner_branch_names_seen: [["a", "b"]],
  "<node>_node_events_count": [2],
  "<node>_node_fan_out_index_absent": [true],
  inner_event_identities_unique: [true],
  started_followed_by_suspended_in_order: [true],
  no_completed_event_for_suspending_node: [true],
  drain_returned_within_timeout: [true],
  workers_not_cancelled_on_per_invocation_drain_timeout: [true],
};

export const SEED_ROWS: ReadonlyArray<SeedRow> = ROWS.map((row) =>
  row.of === undefined && !row.structural && row.forms === undefined && FORMS[row.name] !== undefined ? { ...row, forms: FORMS[row.name] } : row,
);
