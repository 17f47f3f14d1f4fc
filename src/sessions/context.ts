/**
 * Ambient session identity (sessions §3 item 1): the `session_id` of a session-bound invocation is
 * readable anywhere in its async call tree — node bodies, middleware, helpers, observers — through
 * `AsyncLocalStorage`, without threading it through arguments. The context is scoped to the
 * `invoke()` call, so later (and unbound) invocations start clean. It is not a field of the §6
 * `NodeEvent` (§11.1): observers read {@link currentSessionId}.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { currentNodeContext } from "../graph/index.ts";
import type { SessionStateData } from "./record.ts";
import type { SessionSavePoint } from "./errors.ts";

/** What a session save wrote (sessions §6). */
export interface SessionSaveReport<SS = SessionStateData> {
  readonly sessionId: string;
  /** `"completed"` (auto-save at END), `"suspended"` (save at suspend), `"explicit"` (§6.2). */
  readonly savePoint: SessionSavePoint;
  /** The session state written (after §4 outbound projection). */
  readonly state: Readonly<Partial<SS>>;
  readonly schemaVersion: string;
  /** The version the store reported (§8.2), when it reports one. */
  readonly version: number | undefined;
}

/** Options of a mid-invoke save (sessions §6.2). */
export interface MidInvokeSaveOptions<S = Readonly<Record<string, unknown>>, U = Readonly<Record<string, unknown>>> {
  /**
   * A partial update to merge (through the state's reducers) over the calling node's pre-state
   * before projecting — "save after my update merges". Ignored when `state` is given.
   */
  readonly update?: U;
  /** Save exactly this (full invoke) state instead of the calling node's pre-state. */
  readonly state?: S;
}

/** @internal one session-bound invocation. */
export interface SessionBinding {
  readonly sessionId: string;
  readonly invocationId: string;
  /** The `SessionBoundGraph` that opened the binding. */
  readonly owner: object;
  /** §6.2 save from a node of this invocation; `null` when no store is registered. */
  saveFromNode(options: MidInvokeSaveOptions): Promise<SessionSaveReport | null>;
}

/** @internal */
export const sessionStorage = new AsyncLocalStorage<SessionBinding>();

/** @internal the binding of the current invocation (not of an enclosing one). */
export function currentBinding(): SessionBinding | undefined {
  const b = sessionStorage.getStore();
  if (!b) return undefined;
  const ctx = currentNodeContext();
  // A plain invoke() nested inside a session-bound node is a different, unbound invocation.
  if (ctx && ctx.invocationId !== b.invocationId) return undefined;
  return b;
}

/**
 * §3: the `session_id` of the invocation this code runs in, or `undefined` when that invocation is
 * not session-bound (or when called outside any invocation).
 */
export function currentSessionId(): string | undefined {
  return currentBinding()?.sessionId;
}

/**
 * §6.2 explicit mid-invoke save, from a node body (or middleware) of a session-bound invocation's
 * outermost graph: writes the §4 projection of the node's pre-state — with `update` merged through
 * the reducers, or exactly `state` — to the store under the current `session_id`, and resolves once
 * it is committed. Later saves overwrite it; the auto-save at END subsumes it.
 *
 * - Resolves `null` (nothing saved) when the invocation is not session-bound or no store is
 *   registered (§3: the machinery is inert), so graph code runs unchanged in either deployment.
 * - Rejects with `session_save_failed` (or `session_write_conflict`) at the call; the node may
 *   swallow, retry or propagate it (§10).
 * - Throws a `TypeError` from a subgraph / fan-out instance / branch node (§9: session state is an
 *   outermost-graph concern), or from outside a node without `state`.
 */
export function saveSession(options: MidInvokeSaveOptions = {}): Promise<SessionSaveReport | null> {
  const b = currentBinding();
  if (!b) return Promise.resolve(null);
  return b.saveFromNode(options);
}
