/**
 * Observer events (graph-engine §6 *Node event shape*, *Framework-emitted augmentation events*,
 * typed event variants).
 *
 * The observer delivery queue carries a discriminated union, {@link ObserverEvent}, keyed by
 * `kind`. This capability defines the `"node"` kind ({@link NodeEvent}); later capabilities add
 * theirs (LLM completion / failure / token, embedding, rerank, tool-call, metadata augmentation) by
 * declaration merging on {@link ObserverEventMap}:
 *
 * ```ts
 * declare module "../graph/events.ts" {
 *   interface ObserverEventMap { llm_completion: LlmCompletionEvent }
 * }
 * ```
 *
 * Every event kind extends {@link EventLineage} (the §6 event-source identity tuple plus
 * `invocation_id` / `correlation_id`). Only node events carry a `phase`; events without one bypass
 * the per-observer `phases` filter.
 */
import type { GraphRuntimeError } from "./errors.ts";
import type { MetadataAugmentation } from "./extension.ts";
import type { StateRecord } from "./state-types.ts";

/** §6 `phase` of a node event. */
export type NodePhase = "started" | "completed" | "suspended";

/** The identity / scoping baseline every observer event carries (§6, observability §5.1). */
export interface EventLineage {
  /** The outermost invocation's id (observability §5.1). */
  readonly invocationId: string;
  /** Cross-backend correlation id (observability §3.1). */
  readonly correlationId: string;
  /** Name of the node, in its immediate containing graph. */
  readonly nodeName: string;
  /** Execution path from the outermost graph down to the node (never a joined string). */
  readonly namespace: readonly string[];
  /** 0-based attempt index under retry middleware (innermost retry wins); `0` otherwise. */
  readonly attemptIndex: number;
  /** Innermost enclosing fan-out instance index; absent outside fan-out instances. */
  readonly fanOutIndex?: number;
  /** Innermost enclosing parallel-branch name; absent outside parallel branches. */
  readonly branchName?: string;
  /** Fan-out lineage, one entry per dispatch boundary (`namespace.length - 1`), null where none. */
  readonly fanOutIndexChain: readonly (number | null)[];
  /** Parallel-branch lineage, aligned with {@link fanOutIndexChain}. */
  readonly branchNameChain: readonly (string | null)[];
}

/** §6 `fan_out_config`: present on a fan-out node's own events (pipeline-utilities §9). */
export interface FanOutConfig {
  readonly itemCount: number;
  readonly concurrency: number | null;
  readonly errorPolicy: "fail_fast" | "collect";
  readonly parentNodeName: string;
}

/** §6 `parallel_branches_config`: present on a parallel-branches node's own events (§11). */
export interface ParallelBranchesConfig {
  readonly branchNames: readonly string[];
  readonly branchCount: number;
  readonly errorPolicy: "fail_fast" | "collect";
  readonly parentNodeName: string;
}

/** Extra node-event fields a composite node kind may contribute (see `NodeKind.eventFields`). */
export interface NodeEventExtras {
  readonly fanOutConfig?: FanOutConfig;
  readonly parallelBranchesConfig?: ParallelBranchesConfig;
}

/**
 * A node-boundary event (§6). Each node attempt produces one `started` event and exactly one
 * terminal event (`completed`, or `suspended`). On `completed`, exactly one of `postState` /
 * `error` is present. Events, their states and arrays are frozen.
 */
export interface NodeEvent<S extends StateRecord = StateRecord> extends EventLineage, NodeEventExtras {
  readonly kind: "node";
  readonly phase: NodePhase;
  /** Monotonic per invocation, from 0, counting node executions including subgraph-internal ones. */
  readonly step: number;
  /** The state the node received (its own graph's state shape). */
  readonly preState: Readonly<S>;
  /** The post-merge state; only on a successful `completed` event. */
  readonly postState?: Readonly<S>;
  /** The §4 error (with `.category` and `.cause`); only on a failed `completed` event. */
  readonly error?: GraphRuntimeError;
  /** The signal descriptor; only on `suspended` events (suspension §4). */
  readonly descriptor?: unknown;
  /** Containing graphs' states at subgraph entry, outermost first (`length == namespace.length - 1`). */
  readonly parentStates: readonly Readonly<StateRecord>[];
  /** Name of the compiled graph that directly owns the node. */
  readonly graphName: string;
  /** Wall-clock time the event was dispatched (ms since epoch, fractional: sub-millisecond). */
  readonly timestamp: number;
}

/**
 * A node attempt as a hook that brackets attempts sees it ({@link InvocationHooks.onNodeAttemptStart}
 * / `onNodeAttemptEnd`): the fields of the attempt's {@link NodeEvent} — `phase`, `timestamp` and,
 * at its end, `postState` / `error` / `descriptor` — read from the running dispatch, so no event
 * object is built and frozen for the hook. Every `NodeEvent` is one too. Read it during the call
 * only: the same object goes on to describe the attempt's end and the dispatch's later attempts.
 */
export type NodeAttempt<S extends StateRecord = StateRecord> = Omit<NodeEvent<S>, "kind">;

/**
 * Registry of observer event kinds: `kind` → event type. Extend by declaration merging (see the
 * module comment). The union {@link ObserverEvent} follows automatically.
 */
export interface ObserverEventMap {
  node: NodeEvent;
  metadata_augmentation: MetadataAugmentationEvent;
}

/**
 * Framework-emitted metadata-augmentation event (observability §6): `setInvocationMetadata` added
 * `added` in the context of the lineage it carries. No `phase`: never phase-filtered.
 */
export interface MetadataAugmentationEvent extends MetadataAugmentation {
  readonly kind: "metadata_augmentation";
}

/** Every event the delivery queue can carry. */
export type ObserverEvent = ObserverEventMap[keyof ObserverEventMap];

/** The `kind` discriminators. */
export type ObserverEventKind = keyof ObserverEventMap;

/** Type guard for node events. */
export function isNodeEvent(event: { readonly kind: string }): event is NodeEvent {
  return event.kind === "node";
}

/** The spec (snake_case) record form of a node event — for logs, JSON export and cross-impl diffs. */
export interface SpecNodeEventRecord {
  readonly phase: NodePhase;
  readonly node_name: string;
  readonly namespace: readonly string[];
  readonly step: number;
  readonly pre_state: Readonly<StateRecord>;
  readonly post_state?: Readonly<StateRecord>;
  readonly error?: { readonly category: string; readonly message: string };
  readonly descriptor?: unknown;
  readonly parent_states: readonly Readonly<StateRecord>[];
  readonly attempt_index: number;
  readonly fan_out_index?: number;
  readonly branch_name?: string;
  readonly fan_out_index_chain: readonly (number | null)[];
  readonly branch_name_chain: readonly (string | null)[];
  readonly fan_out_config?: Readonly<Record<string, unknown>>;
  readonly parallel_branches_config?: Readonly<Record<string, unknown>>;
  readonly invocation_id: string;
  readonly correlation_id: string;
}

/** Render a node event in the spec's field names; absent fields are omitted. */
export function toSpecEvent(e: NodeEvent): SpecNodeEventRecord {
  const out: Record<string, unknown> = {
    phase: e.phase,
    node_name: e.nodeName,
    namespace: e.namespace,
    step: e.step,
    pre_state: e.preState,
  };
  if (e.postState !== undefined) out["post_state"] = e.postState;
  if (e.error !== undefined) out["error"] = { category: e.error.category, message: e.error.message };
  if (e.descriptor !== undefined) out["descriptor"] = e.descriptor;
  out["parent_states"] = e.parentStates;
  out["attempt_index"] = e.attemptIndex;
  if (e.fanOutIndex !== undefined) out["fan_out_index"] = e.fanOutIndex;
  if (e.branchName !== undefined) out["branch_name"] = e.branchName;
  out["fan_out_index_chain"] = e.fanOutIndexChain;
  out["branch_name_chain"] = e.branchNameChain;
  if (e.fanOutConfig) {
    const c = e.fanOutConfig;
    out["fan_out_config"] = {
      item_count: c.itemCount,
      concurrency: c.concurrency,
      error_policy: c.errorPolicy,
      parent_node_name: c.parentNodeName,
    };
  }
  if (e.parallelBranchesConfig) {
    const c = e.parallelBranchesConfig;
    out["parallel_branches_config"] = {
      branch_names: c.branchNames,
      branch_count: c.branchCount,
      error_policy: c.errorPolicy,
      parent_node_name: c.parentNodeName,
    };
  }
  out["invocation_id"] = e.invocationId;
  out["correlation_id"] = e.correlationId;
  return out as unknown as SpecNodeEventRecord;
}
