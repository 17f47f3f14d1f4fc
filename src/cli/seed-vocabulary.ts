/**
 * The directives conformance-adapter 0.120.1 §5 (the seed) defines, walked section by section, as
 * rows for the inventory in docs/vocabulary.md. Each row names the key, the §5 section, the
 * position(s) it sits at in this adapter's terms, and — for what this adapter cannot run yet —
 * the capability it waits for. A row's status is not written here: it is computed from the
 * registry (see vocabulary-doc.ts), so the table cannot claim more than the adapter recognizes.
 *
 * Row kinds:
 * - a directive: `name` at each of `at`;
 * - a sub-key: `key` inside the value of directive `of` (checked against that directive's schema,
 *   or — `via` — as a directive at the position the container resolves its other keys at);
 * - structural: a key the fixture model or interpreter handles itself (`cases`, `graph`, ...).
 *
 * `gap` records a known shortfall of a recognized directive (measured, e.g. a failing upstream
 * fixture); it makes the row "partly". `home` is set when the seed places the definition in a
 * directory's note rather than §5 itself (e.g. §5.8's position table).
 */
export interface SeedRow {
  readonly section: string;
  readonly name: string;
  readonly at?: ReadonlyArray<string>;
  readonly of?: string;
  readonly key?: string;
  readonly structural?: boolean;
  readonly home?: string;
  readonly waits?: string;
  readonly gap?: string;
  /** A sub-key the directive resolves as a directive at this position (not through its schema). */
  readonly via?: string;
}

const d = (section: string, name: string, at: string | string[], extra: Partial<SeedRow> = {}): SeedRow => ({
  section,
  name,
  at: typeof at === "string" ? [at] : at,
  ...extra,
});
const sub = (section: string, of: string, at: string, keys: string[], extra: Partial<SeedRow> = {}): SeedRow[] =>
  keys.map((key) => ({ section, name: `${of}.${key}`, of, at: [at], key, ...extra }));
const waits = (section: string, capability: string, at: string, names: string[]): SeedRow[] =>
  names.map((name) => d(section, name, at, { waits: capability }));

export const SEED_ROWS: ReadonlyArray<SeedRow> = [
  // §5 preamble: assertion positions
  { section: "5", name: "capture_as labels", structural: true, waits: "prompt-management" },
  // §5.1 Node behavior
  d("5.1", "update", "node"),
  d("5.1", "update_pure", "node"),
  d("5.1", "update_from_field", "node"),
  ...sub("5.1", "update_from_field", "node", ["multiplier"]),
  d("5.1", "update_pure_from_state", "node", { waits: "observability" }),
  d("5.1", "raises", "node"),
  d("5.1", "suspend_with_descriptor", "node"),
  ...sub("5.1", "suspend_with_descriptor", "node", ["signal_id", "metadata", "mark_node_completed"]),
  d("5.1", "conditional_suspend", "node"),
  ...sub("5.1", "conditional_suspend", "node", ["suspend_on_item_index", "descriptor", "on_other_indices"]),
  d("5.1", "invoke_drain_events_for", "node"),
  ...sub("5.1", "invoke_drain_events_for", "node", ["timeout_seconds", "snapshot_observer"]),
  d("5.1", "wrap_with_middleware", "node"),
  ...sub("5.1", "wrap_with_middleware", "node", ["name", "pre_log", "post_log", "pre_next_calls_suspend_with_descriptor"]),
  ...waits("5.1", "observability", "node", ["calls_llm", "calls_llm_from_wrapper", "augment_metadata", "augment_metadata_from_field", "capture_invocation_metadata_into"]),
  { section: "5.1", name: "calls_llm content_repeat / base64_data_synthetic", structural: true, waits: "llm-provider" },
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
  d("5.2", "state", ["case", "subgraph"], {
    gap: "user-defined record types as list<T> elements are not accepted (upstream pipeline-utilities/052 fails: unknown type or record \"error_entry\")",
  }),
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
  ...waits("5.5", "observability", "case", ["mock_llm", "langfuse_client", "langfuse_observer", "otel_observer", "expected_construction_error"]),
  ...waits("5.5", "observability", "expected", ["log_records", "log_records_absent", "no_payload_bearing_langfuse_observations_on_global", "payload_bearing_langfuse_observations_on_global"]),
  d("5.5", "typed_observers", "case", { waits: "llm-provider (typed LLM / tool events)" }),
  ...waits("5.5", "llm-provider (typed LLM / tool events)", "expected", [
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
  d("5.6", "saved_session_assertions", "expected", {
    gap: "its schema still accepts excludes_fields, which the seed retired (\"It takes no other sub-key\")",
  }),
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
  d("5.7", "caller_metadata", ["case", "invocation"], { waits: "observability" }),
  d("5.7", "caller_correlation_id", "case"),
  d("5.7", "caller_invocation_id", ["case", "invocation"]),
  d("5.7", "invoke", "case"),
  d("5.7", "invoke_with", "case"),
  d("5.7", "drain", ["invoke", "invocation"]),
  d("5.7", "resume_invocation", ["invoke", "invocation"]),
  d("5.7", "invocations", "case"),
  d("5.7", "session_id", "invocation"),
  d("5.7", "correlation_id", "invocation", { waits: "observability" }),
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
  d("5.8", "raises", "expected", { waits: "llm-provider / prompt-management" }),
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
  ...waits("5.8", "observability", "expected", ["span_tree", "traces", "metrics"]),
  { section: "5.8", name: "langfuse_*", structural: true, waits: "observability" },
  // checkpoint records
  d("5.8", "saved_record_assertions", "case"),
  ...sub("5.8", "saved_record_assertions", "case", ["invocation_id", "correlation_id", "schema_version", "last_saved_at", "state", "completed_positions", "parent_states", "fan_out_progress"]),
  d("5.8", "every_save_assertions", "case", { home: "pipeline-utilities" }),
  d("5.8", "latest_record_assertions", "case", { home: "pipeline-utilities" }),
  d("5.8", "checkpoint_saves", "expected", { home: "pipeline-utilities" }),
  d("5.8", "instances_executed_during_resume", "expected"),
  d("5.8", "instances_skipped_during_resume", "expected"),
  // harness turn outcomes
  ...waits("5.8", "harness / harness-chat", "expected", ["dispatch_path", "error_bucket", "error_category"]),
  // §5.8 position table
  d("5.8", "expected_backend_state", "document", { waits: "prompt-management (§6.8 caching backend)" }),
  d("5.8", "expected_wire_bytes_identical", "document", { waits: "llm-provider" }),
  d("5.8", "expected_chain_ambiguity_error", ["case"], { home: "pipeline-utilities" }),
  d("5.8", "expected_failure_isolation_event", "expected", { home: "pipeline-utilities" }),
  d("5.8", "expected_attempt_events", "expected", { home: "pipeline-utilities" }),
  d("5.8", "expected_observer_event", "expected", { home: "pipeline-utilities" }),
  ...sub("5.8", "expected_failure_isolation_event", "expected", ["caught_exception"], { home: "pipeline-utilities" }),
  d("5.8", "expected_shared_prefix", "case", { waits: "prompt-management" }),
  d("5.8", "expected_message_equal", "case", { waits: "prompt-management" }),
  d("5.8", "expected_listener_callback", "case", { waits: "harness-chat" }),
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
  ...waits("5.11", "llm-provider", "case", ["mock_provider", "call"]),
  ...waits("5.11", "llm-provider", "expected", ["wire_requests", "llm_spans"]),
  { section: "5.12", name: "carries keys of structured_output_invalid", structural: true, waits: "llm-provider" },
  d("5.14", "chunk_size", "case", { waits: "retrieval-provider" }),
  ...waits("5.15", "retrieval-provider", "case", [
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
  ...waits("5.15", "retrieval-provider", "node", ["calls_embed", "calls_rerank"]),
  ...waits("5.15", "retrieval-provider", "invariant", ["no_embed_request_issued", "no_rerank_request_issued"]),
  ...waits("5.16", "llm-provider / retrieval-provider", "case", [
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
