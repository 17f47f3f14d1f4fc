/**
 * The `suspend` operation (suspension §3).
 *
 * ```ts
 * builder.addNode("approve", async (s) => {
 *   await notifyReviewer(s.draft);
 *   suspend({ signalId: `approval-${s.ticket}`, metadata: { kind: "approval" } });
 * });
 * ```
 *
 * `suspend()` is the node body's terminal action for the attempt: it throws (synchronously; an
 * `await` in front of it is harmless) an internal control-flow signal the engine turns into the
 * node's `suspended` event and a `suspended` outcome of `invoke()` — see `signal.ts` for how it
 * travels through middleware, subgraphs, fan-out instances and parallel branches. Nothing after the
 * call runs, and the node's update is never merged. Do not catch it.
 *
 * Where it may be called (§3 table): in a node body of an invocation started by
 * `withSuspension(...).invoke()` — the outermost graph, a subgraph, a `fail_fast` fan-out instance
 * or parallel branch. Anywhere else it raises `suspension_in_unsupported_context` (§9): outside
 * any invocation or in a plain `graph.invoke()` (nothing could persist the pause), from middleware
 * (§8.4), inside a `collect`-mode fan-out instance or branch (§8.2 / §8.3).
 *
 * Middleware detection covers code that runs before the node body of an attempt (pre-`next()` and
 * between attempts). A middleware calling `suspend()` after a successful `next()` is not told
 * apart from the node body by the engine's public node context (see README, "engine growth").
 */
import { currentNodeContext, type NodeContext } from "../graph/index.ts";
import { normalizeDescriptor, type SignalDescriptor, type SignalMetadata } from "./descriptor.ts";
import { SuspensionInUnsupportedContextError, type UnsupportedContext } from "./errors.ts";
import { scopeOf } from "./scope.ts";
import { SuspensionSignal } from "./signal.ts";
import { collectContext } from "./topology.ts";

/** Options of {@link suspend}. */
export interface SuspendOptions {
  /**
   * §3: `true` (default) — the suspending node counts as completed; resume continues with the node
   * after it. `false` — resume re-invokes this node body with the payload merged into its state
   * (write it re-entrantly).
   */
  readonly markNodeCompleted?: boolean;
}

function location(ctx: NodeContext): { nodeName: string; namespace: readonly string[]; parentStates: readonly Readonly<Record<string, unknown>>[] } {
  return { nodeName: ctx.nodeName, namespace: ctx.namespace, parentStates: ctx.parentStates };
}

/**
 * Whether this call runs in middleware rather than in the node body: before the node's first
 * attempt started (`step` is assigned when it does), or between attempts (no attempt is open —
 * read from the engine's dispatch context, see README).
 */
function inMiddleware(ctx: NodeContext): boolean {
  if (ctx.step === undefined) return true;
  return (ctx as unknown as { readonly open?: unknown }).open === false;
}

/**
 * §3: pause the current invocation at this node, awaiting the signal `descriptor` names (see the
 * module comment). Never returns.
 */
export function suspend<M extends SignalMetadata>(descriptor: SignalDescriptor<M>, options: SuspendOptions = {}): never {
  const ctx = currentNodeContext();
  if (ctx === undefined) throw new SuspensionInUnsupportedContextError("outside_invocation");
  const scope = scopeOf(ctx.invocationId);
  const unsupported = (why: UnsupportedContext): never => {
    const err = new SuspensionInUnsupportedContextError(why, location(ctx));
    throw scope ? scope.fail(err) : err;
  };
  if (inMiddleware(ctx)) unsupported("middleware");
  if (scope === undefined) unsupported("not_suspendable");
  const collect = collectContext(scope!.root, ctx.namespace, ctx.fanOutIndexChain, ctx.branchNameChain);
  if (collect !== null) unsupported(collect);
  const mark = options.markNodeCompleted ?? true;
  if (typeof mark !== "boolean") throw new TypeError("markNodeCompleted must be a boolean");
  throw new SuspensionSignal(normalizeDescriptor(descriptor), mark, {
    invocationId: ctx.invocationId,
    namespace: ctx.namespace,
    fanOutIndexChain: ctx.fanOutIndexChain,
    branchNameChain: ctx.branchNameChain,
    attemptIndex: ctx.attemptIndex,
    step: ctx.step,
  });
}
