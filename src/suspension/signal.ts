/**
 * The terminal-action mechanism (suspension §3): `suspend()` throws a {@link SuspensionSignal}, an
 * internal subclass of the engine's control-flow `GraphInterrupt`. The engine does not wrap it as
 * `node_exception`: it dispatches the node's `suspended` event in place of `completed`, unwinds
 * every frame — subgraphs, fan-out instances and parallel branches rethrow it, cancelling siblings
 * — and `invoke()` resolves `{ outcome: "suspended" }`, which `withSuspension()` persists.
 *
 * Wrapping middleware sees it as a thrown value: the canonical middleware (retry, timing, failure
 * isolation) rethrow it untouched; your own middleware MUST rethrow it too (use
 * {@link isSuspension} in a catch-all), so its post-`next()` code does not run on the suspending
 * attempt (§8.4). The class is not exported from the package.
 */
import { GraphInterrupt } from "../graph/index.ts";
import type { SignalDescriptor } from "./descriptor.ts";

/** Where `suspend()` was called (captured from the node context at the call). */
export interface SuspensionOrigin {
  readonly invocationId: string;
  readonly namespace: readonly string[];
  readonly fanOutIndexChain: readonly (number | null)[];
  readonly branchNameChain: readonly (string | null)[];
  readonly attemptIndex: number;
  readonly step: number | undefined;
}

/** @internal the control-flow signal `suspend()` throws. */
export class SuspensionSignal extends GraphInterrupt {
  override name = "SuspensionSignal";
  override readonly descriptor: SignalDescriptor;
  readonly markNodeCompleted: boolean;
  readonly origin: SuspensionOrigin;
  constructor(descriptor: SignalDescriptor, markNodeCompleted: boolean, origin: SuspensionOrigin) {
    super(descriptor, `suspended awaiting signal "${descriptor.signalId}"`);
    this.descriptor = descriptor;
    this.markNodeCompleted = markNodeCompleted;
    this.origin = origin;
  }
}

/**
 * Is `e` a suspension in flight (any engine `GraphInterrupt`)? Middleware with a catch-all must
 * rethrow it: `catch (e) { if (isSuspension(e)) throw e; ... }`.
 */
export function isSuspension(e: unknown): e is GraphInterrupt {
  return e instanceof GraphInterrupt;
}
