/**
 * Cooperative cancellation of fan-out instances and parallel branches (pipeline-utilities §9.5,
 * §11.5: "Cancellation MUST be cooperative (... TypeScript `AbortSignal`); instances MUST be given
 * the opportunity to clean up").
 *
 * Under `fail_fast`, the first failure aborts a signal shared by the node's still-running instances
 * / branches; it also follows the enclosing signal (the dispatching node's `ctx.signal`: the
 * caller's `invoke({ signal })`, or an enclosing instance's). The instances' runs carry it (their
 * nodes' `ctx.signal`; the engine stops each run before its next node once it aborts), and code
 * anywhere in their async call tree reads it with {@link cancellationSignal} and stops early
 * (`fetch(url, { signal })`, `setTimeout(ms, v, { signal })`, `throwIfCancelled()`). Signals nest:
 * an inner fan-out inside a cancelled outer instance is cancelled too.
 *
 * The signal travels in its own `AsyncLocalStorage`, independent of the engine's context.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setMaxListeners } from "node:events";

const storage = new AsyncLocalStorage<AbortSignal>();

/**
 * Raised (or used as the abort reason) when a fan-out instance or parallel branch is cancelled
 * because a sibling failed under `fail_fast`, or because an enclosing instance / branch was.
 * Cancellations are infrastructure, not user-visible errors (§9.5): they are never recorded as
 * instance failures.
 */
export class CancelledError extends Error {
  override name = "CancelledError";
  constructor(message = "cancelled: a sibling failed under fail_fast", options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * The cancellation signal of the fan-out instance / parallel branch this code runs in (the
 * innermost one), or `undefined` outside any `fail_fast` fan-out / branch.
 */
export function cancellationSignal(): AbortSignal | undefined {
  return storage.getStore();
}

/** Throw the abort reason if the current instance / branch has been cancelled. */
export function throwIfCancelled(): void {
  const s = storage.getStore();
  if (s?.aborted) throw s.reason instanceof Error ? s.reason : new CancelledError();
}

/** @internal run `fn` with `signal` as the current cancellation signal. */
export function runWithSignal<T>(signal: AbortSignal, fn: () => T): T {
  return storage.run(signal, fn);
}

/**
 * @internal A cancellation scope for one fan-out / parallel-branches dispatch: its own controller,
 * aborted when a sibling fails or when the enclosing scope's signal aborts. {@link dispose} detaches
 * from the enclosing signal.
 */
export class CancellationScope {
  readonly controller = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort: (() => void) | undefined;

  constructor(outer: AbortSignal | undefined = cancellationSignal()) {
    // Every in-flight instance (and every nested scope) may listen: no MaxListeners warning at width 16+.
    setMaxListeners(0, this.controller.signal);
    this.#outer = outer;
    if (outer) {
      if (outer.aborted) this.controller.abort(outer.reason);
      else {
        this.#onOuterAbort = () => this.controller.abort(outer.reason);
        outer.addEventListener("abort", this.#onOuterAbort, { once: true });
      }
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the enclosing scope (not this one) was cancelled. */
  get outerAborted(): boolean {
    return this.#outer?.aborted === true;
  }

  abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  dispose(): void {
    if (this.#outer && this.#onOuterAbort) this.#outer.removeEventListener("abort", this.#onOuterAbort);
  }
}
