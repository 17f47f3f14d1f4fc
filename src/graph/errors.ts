/**
 * Runtime error semantics (graph-engine §4).
 *
 * Every error raised out of `invoke()` by the engine is a {@link GraphRuntimeError} carrying a
 * canonical `category`, the node it was raised from, the recoverable state at the point of failure,
 * and the original error as the standard `Error.cause`.
 */
import type { StateRecord } from "./state-types.ts";

/**
 * Registry of runtime error categories (§4). Later capabilities add categories by declaration
 * merging on this interface.
 */
export interface RuntimeErrorCategories {
  /** A node raised; the user's exception is the `cause`. */
  node_exception: true;
  /** An edge function raised; behaves identically to `node_exception`. */
  edge_exception: true;
  /** A reducer raised while merging. */
  reducer_error: true;
  /** A conditional edge returned a destination that is neither a declared node nor END. */
  routing_error: true;
  /** State failed schema validation at a boundary. */
  state_validation_error: true;
  /**
   * Project-defined (the spec names no category for it): the caller's `invoke({ signal })` aborted.
   * The invocation stopped at a node boundary, or a node failed while the signal was aborted.
   */
  invocation_cancelled: true;
  /** Project-defined: the invocation was about to run more node executions than its `maxSteps`. */
  step_limit_exceeded: true;
}

/** A runtime error category identifier. */
export type RuntimeErrorCategory = keyof RuntimeErrorCategories;

/** Where a runtime error happened; filled in by the engine. */
export interface ErrorLocation {
  /** The node the error was raised from (absent for invoke-entry validation failures). */
  readonly nodeName?: string;
  /** Full namespace of that node, outermost first (§6 `namespace`). */
  readonly namespace?: readonly string[];
  /** The recoverable state: the state of the graph owning the node, before the failing merge. */
  readonly state?: Readonly<StateRecord>;
  /** States of the containing graphs at subgraph entry, outermost first (§6 `parent_states`). */
  readonly parentStates?: readonly Readonly<StateRecord>[];
  /** The §6 step of the failing node execution, when one was assigned. */
  readonly step?: number;
}

/**
 * Base class of every §4 runtime error.
 *
 * - `category` — the canonical identifier.
 * - `nodeName` / `namespace` — where it was raised (`raised_from`).
 * - `state` — recoverable state (§4: "the partial state at the point of failure MUST be recoverable").
 * - `cause` — the original error (standard `Error.cause`).
 * - `invocationId` / `executionOrder` — filled in when the error leaves `invoke()`.
 */
export abstract class GraphRuntimeError extends Error {
  abstract readonly category: RuntimeErrorCategory;
  /** True for the §4 carrier wrappers (`node_exception`, `edge_exception`) around a user error. */
  readonly isCarrier: boolean = false;
  nodeName: string | undefined;
  namespace: readonly string[];
  state: Readonly<StateRecord> | undefined;
  parentStates: readonly Readonly<StateRecord>[];
  step: number | undefined;
  /** Id of the invocation the error escaped from (set at the `invoke()` boundary). */
  invocationId: string | undefined;
  /** Outermost-graph nodes that began executing before the failure, in order (set at `invoke()`). */
  executionOrder: readonly string[] = [];

  constructor(message: string, location: ErrorLocation = {}, options?: ErrorOptions) {
    super(message, options);
    this.nodeName = location.nodeName;
    this.namespace = location.namespace ?? (location.nodeName !== undefined ? [location.nodeName] : []);
    this.state = location.state;
    this.parentStates = location.parentStates ?? [];
    this.step = location.step;
    this.invocationId = undefined;
  }

  /** §4 `raised_from`: alias of {@link nodeName}. */
  get raisedFrom(): string | undefined {
    return this.nodeName;
  }

  /** The outermost graph's recoverable state (the failing graph's own state when not nested). */
  get outermostState(): Readonly<StateRecord> | undefined {
    return this.parentStates.length > 0 ? this.parentStates[0] : this.state;
  }
}

/**
 * The message of any thrown value: an `Error`'s `message` (also one from another realm), a string
 * itself, anything else as JSON (or `String()` where JSON fails). Every error message quoting a
 * cause, and every cause-chain link's `message` (pipeline-utilities §6.3), uses it.
 */
export function messageOf(cause: unknown): string {
  if (cause instanceof Error || Object.prototype.toString.call(cause) === "[object Error]") return (cause as Error).message;
  if (typeof cause === "string") return cause;
  try {
    return JSON.stringify(cause) ?? String(cause);
  } catch {
    return String(cause);
  }
}

/**
 * §4 `node_exception`: a node (or middleware around it) raised. This is a *carrier*: the user's
 * exception is `cause`, and `message` repeats the cause's message.
 */
export class NodeException extends GraphRuntimeError {
  override name = "NodeException";
  readonly category = "node_exception" as const;
  override readonly isCarrier = true;
  constructor(cause: unknown, location: ErrorLocation = {}) {
    super(messageOf(cause), location, { cause });
  }
}

/** §4 `edge_exception`: an edge function raised. A carrier, like {@link NodeException}. */
export class EdgeException extends GraphRuntimeError {
  override name = "EdgeException";
  readonly category = "edge_exception" as const;
  override readonly isCarrier = true;
  constructor(cause: unknown, location: ErrorLocation = {}) {
    super(messageOf(cause), location, { cause });
  }
}

/**
 * §4 `ReducerError`: a reducer raised while merging a node's partial update. Names the field, the
 * reducer and the producing node; `state` is the pre-merge state; `cause` is the reducer's error.
 */
export class ReducerError extends GraphRuntimeError {
  override name = "ReducerError";
  readonly category = "reducer_error" as const;
  readonly field: string;
  readonly reducerName: string;
  constructor(field: string, reducerName: string, cause: unknown, location: ErrorLocation = {}) {
    super(
      `reducer ${reducerName} failed merging field "${field}"` +
        (location.nodeName !== undefined ? ` from node "${location.nodeName}"` : "") +
        `: ${messageOf(cause)}`,
      location,
      { cause },
    );
    this.field = field;
    this.reducerName = reducerName;
  }
}

/** §4 `routing_error`: a conditional edge returned neither a declared node nor END. */
export class RoutingError extends GraphRuntimeError {
  override name = "RoutingError";
  readonly category = "routing_error" as const;
  /** The value the edge function returned. */
  readonly destination: unknown;
  constructor(message: string, destination: unknown, location: ErrorLocation = {}) {
    super(message, location);
    this.destination = destination;
  }
}

/**
 * `invocation_cancelled` (project-defined): the `signal` passed to `invoke()` aborted. One error for
 * every graph shape — plain graph, subgraph, fan-out, parallel branches. `nodeName` / `state` say
 * where it stopped: the node about to start (with the state it would have started from), or the
 * node that was running when the signal aborted (with its pre-node state; with its post-update
 * state when its conditional edge function was the one running). A fan-out or
 * parallel-branches node cancelled with instances in flight is reported at that node, with the
 * state at its entry. `cause` (and {@link reason}) is the signal's `reason`.
 */
export class InvocationCancelledError extends GraphRuntimeError {
  override name = "InvocationCancelledError";
  readonly category = "invocation_cancelled" as const;
  /** The abort signal's `reason` (a `DOMException` named `AbortError` unless the caller gave one). */
  readonly reason: unknown;
  constructor(reason: unknown, location: ErrorLocation, running: boolean) {
    const where = location.nodeName === undefined ? "" : running ? ` while node "${location.nodeName}" was running` : ` before node "${location.nodeName}" started`;
    super(`invocation cancelled${where}: ${messageOf(reason)}`, location, { cause: reason });
    this.reason = reason;
  }
}

/**
 * `step_limit_exceeded` (project-defined): the invocation was about to start node execution number
 * `maxSteps + 1` (counted like `stepCount`: every node execution, subgraph-internal and fan-out
 * instances' included). `nodeName` / `state` are the node that was not started and the state it
 * would have started from — resume from there (with a checkpointer) or inspect the loop.
 */
export class StepLimitExceededError extends GraphRuntimeError {
  override name = "StepLimitExceededError";
  readonly category = "step_limit_exceeded" as const;
  /** The limit in force (`invoke({ maxSteps })`, else `compile({ maxSteps })`). */
  readonly maxSteps: number;
  constructor(maxSteps: number, location: ErrorLocation) {
    super(
      `step limit exceeded: ${maxSteps} node executions ran and node "${location.nodeName ?? "?"}" would start another ` +
        `(a loop that never reaches END? raise maxSteps if the run is legitimately this long)`,
      location,
    );
    this.maxSteps = maxSteps;
  }
}

/** One schema violation found by validation. */
export interface ValidationIssue {
  /** Top-level state field the violation is in. */
  readonly field: string;
  /** JSON pointer into the state (e.g. `/log/0`). */
  readonly path: string;
  readonly message: string;
}

/**
 * §4 `state_validation_error`: state failed schema validation at a boundary (invoke entry,
 * subgraph entry, or a merge). Names the offending field(s). `state` is the last valid state (the
 * pre-merge state, or the rejected initial state at entry); `invalidState` is the rejected one.
 */
export class StateValidationError extends GraphRuntimeError {
  override name = "StateValidationError";
  readonly category = "state_validation_error" as const;
  readonly fields: readonly string[];
  readonly issues: readonly ValidationIssue[];
  readonly invalidState: Readonly<StateRecord> | undefined;
  constructor(
    issues: readonly ValidationIssue[],
    location: ErrorLocation & { invalidState?: Readonly<StateRecord>; boundary?: string } = {},
  ) {
    const fields = [...new Set(issues.map((i) => i.field))];
    super(
      `state validation failed` +
        (location.boundary ? ` at ${location.boundary}` : "") +
        ` for field(s) ${fields.join(", ")}: ` +
        issues.map((i) => `${i.path || "/"} ${i.message}`).join("; "),
      location,
    );
    this.fields = Object.freeze(fields);
    this.issues = Object.freeze([...issues]);
    this.invalidState = location.invalidState;
  }
}

/** Narrowing helper: is `err` a §4 error of the given category? */
export function isGraphError<C extends RuntimeErrorCategory>(
  err: unknown,
  category?: C,
): err is GraphRuntimeError & { category: C } {
  return err instanceof GraphRuntimeError && (category === undefined || err.category === category);
}
