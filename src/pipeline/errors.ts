/**
 * Error categories and typed errors of fan-out (pipeline-utilities §9) and parallel branches
 * (§11.9).
 *
 * Compile-time categories are registered on the engine's `CompileErrorCategories` and reported
 * through `NodeKind.validate` (so `GraphBuilder.compile()` throws the engine's `CompileError`).
 * Runtime categories are registered on `RuntimeErrorCategories`; the errors below are raised from
 * inside the fan-out / parallel-branches node, so the engine surfaces them as the `cause` of the
 * node's graph-engine §4 `node_exception` (recoverable state = the parent state at node entry).
 */
import { GraphRuntimeError, NodeException, type ErrorLocation, type NodeContext, type StateRecord } from "../graph/index.ts";

declare module "../graph/compile-errors.ts" {
  interface CompileErrorCategories {
    /** §9: `items_field` (or `errors_field`) is not a list-typed field. */
    fan_out_field_not_list: true;
    /** §9: exactly one of `items_field` / `count` must be given (or `item_field` was mixed into count mode). */
    fan_out_count_mode_ambiguous: true;
    /** §11.9: the `branches` mapping is empty. */
    parallel_branches_no_branches: true;
    /** §9.8: a static failure-isolation `degraded_update` in `instanceMiddleware` omits `collect_field`. */
    fan_out_degraded_update_missing_collect_field: true;
    /** §11.9: a branch declares both `subgraph` and `call`, or neither (or is otherwise malformed). */
    parallel_branches_invalid_branch_spec: true;
  }
}

declare module "../graph/errors.ts" {
  interface RuntimeErrorCategories {
    /** §9.1: the resolved instance count is zero under `on_empty: "raise"`. Non-transient. */
    fan_out_empty: true;
    /** §9.1: a `count` callable returned something other than a non-negative integer. */
    fan_out_invalid_count: true;
    /** §9.2: a `concurrency` callable returned something other than a positive integer or null. */
    fan_out_invalid_concurrency: true;
    /** §9: the `items_field` value at fan-out entry is not a list. */
    fan_out_field_not_list: true;
    /** §11.9: a branch raised under `error_policy: "fail_fast"` (a `node_exception` subtype, carrier). */
    parallel_branches_branch_failed: true;
  }
}

/** The runtime categories a {@link FanOutError} can carry. */
export type FanOutErrorCategory =
  | "fan_out_empty"
  | "fan_out_invalid_count"
  | "fan_out_invalid_concurrency"
  | "fan_out_field_not_list";

/** Where a composite node's error is located: the node itself, with the state it was dispatched on. */
export function nodeLocation(ctx: NodeContext, state: Readonly<StateRecord>): ErrorLocation {
  return {
    nodeName: ctx.nodeName,
    namespace: ctx.namespace,
    state,
    parentStates: ctx.parentStates,
    ...(ctx.step !== undefined ? { step: ctx.step } : {}),
  };
}

/**
 * A fan-out failure found at fan-out entry (§9.1, §9.2): per §9.1 the engine "raises a
 * `node_exception` ... with category `fan_out_empty`" — so this is a `node_exception` carrier
 * raised at the fan-out node (category `node_exception`) whose fan-out-specific kind is
 * {@link fanOutCategory}: `fan_out_empty`, `fan_out_invalid_count`, `fan_out_invalid_concurrency`,
 * `fan_out_field_not_list`. Its cause is a plain error holding the message. `state` is the parent
 * state at fan-out entry. None is
 * transient: re-running with the same input fails the same way.
 */
export class FanOutError extends NodeException {
  override name = "FanOutError";
  /** The fan-out error kind (§9.1 / §9.2). */
  readonly fanOutCategory: FanOutErrorCategory;
  readonly transient = false;
  constructor(category: FanOutErrorCategory, message: string, location: ErrorLocation = {}) {
    super(new Error(message), location);
    this.message = message;
    this.fanOutCategory = category;
  }
}

/**
 * §9.5 `fail_fast`: the offending instance's error, wrapped as a `node_exception` at the fan-out
 * node's level (`nodeName` = the fan-out node, `state` = the parent snapshot at fan-out entry) and
 * tagged with the instance's {@link fanOutIndex}. `cause` is the instance's own error (itself a
 * `node_exception` raised from the inner node, with the instance state).
 */
export class FanOutInstanceError extends NodeException {
  override name = "FanOutInstanceError";
  /** Index of the failed instance (§6 `fan_out_index`). */
  readonly fanOutIndex: number;
  constructor(fanOutIndex: number, cause: unknown, location: ErrorLocation = {}) {
    super(cause, location);
    this.fanOutIndex = fanOutIndex;
  }
}

/**
 * §11.9 `parallel_branches_branch_failed`: a branch raised under `fail_fast`. A carrier (a
 * `node_exception` subtype attached at the parallel-branches node's level): `cause` is the branch's
 * error, {@link branchName} names the branch, `state` is the parent state at node entry (no branch
 * contribution was applied, §11.4). Transient-ness is inherited from the cause (§6.1).
 */
export class ParallelBranchesBranchFailedError extends GraphRuntimeError {
  override name = "ParallelBranchesBranchFailedError";
  readonly category = "parallel_branches_branch_failed" as const;
  override readonly isCarrier = true;
  /** The failing branch (§6 `branch_name`). */
  readonly branchName: string;
  constructor(branchName: string, cause: unknown, location: ErrorLocation = {}) {
    super(`branch "${branchName}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, location, { cause });
    this.branchName = branchName;
  }
}

/** Is `err` a {@link FanOutError} (of the given category)? */
export function isFanOutError<C extends FanOutErrorCategory>(err: unknown, category?: C): err is FanOutError & { fanOutCategory: C } {
  return err instanceof FanOutError && (category === undefined || err.fanOutCategory === category);
}

/**
 * Walk `err`'s `Error.cause` chain (outermost first, stopping on a repeated reference) and return
 * the first link satisfying `test` — e.g. `findCause(err, (e) => e instanceof FanOutError)`.
 */
export function findCause<T>(err: unknown, test: (e: unknown) => e is T): T | undefined;
export function findCause(err: unknown, test: (e: unknown) => boolean): unknown;
export function findCause(err: unknown, test: (e: unknown) => boolean): unknown {
  const seen = new Set<unknown>();
  let cur: unknown = err;
  while (cur !== undefined && cur !== null && !seen.has(cur)) {
    if (test(cur)) return cur;
    seen.add(cur);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return undefined;
}

/** A short category string for an error record: the error's `category`, else its class name. */
export function categoryOf(err: unknown): string {
  if (typeof err === "object" && err !== null) {
    const c = (err as { category?: unknown }).category;
    if (typeof c === "string" && c.length > 0) return c;
    if (err instanceof Error) return err.name;
  }
  return "error";
}

