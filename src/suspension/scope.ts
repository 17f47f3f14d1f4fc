/**
 * The suspendable invocation's async context: which invocation `withSuspension()` is running (so
 * `suspend()` can tell a suspendable invocation from a plain or nested one), the compiled graph it
 * runs (for the §8.2 / §8.3 `collect` check), the positions that completed so far (the paused
 * record's `completed_positions`), and the first unsupported-context error raised in it — rethrown
 * at every later node boundary, so a `collect` fan-out or a catching middleware cannot swallow it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { CompiledGraph, InvocationHooks, NodeEvent, StateRecord } from "../graph/index.ts";
import type { NodePosition } from "../checkpoint/record.ts";
import type { SuspensionError } from "./errors.ts";

/** @internal one suspendable invocation (fresh or resumed). */
export class SuspensionScope {
  readonly invocationId: string;
  readonly root: CompiledGraph<StateRecord, unknown>;
  /** Completed, merged positions outside fan-out instances, in completion order (carried across resumes). */
  readonly positions: NodePosition[];
  /** The first unsupported-context error; fatal for the invocation. */
  fatal: SuspensionError | undefined = undefined;
  readonly hooks: InvocationHooks;

  constructor(invocationId: string, root: CompiledGraph<StateRecord, unknown>, carried: readonly NodePosition[] = []) {
    this.invocationId = invocationId;
    this.root = root;
    this.positions = [...carried];
    this.hooks = Object.freeze({ onNodeCompleted: (ev: NodeEvent) => this.#onCompleted(ev) });
  }

  /** Record `error` as fatal for the invocation (the first one wins) and return it. */
  fail(error: SuspensionError): SuspensionError {
    this.fatal ??= error;
    return this.fatal;
  }

  #onCompleted(ev: NodeEvent): void {
    if (this.fatal) throw this.fatal;
    if (ev.error !== undefined) return;
    for (const x of ev.fanOutIndexChain) if (x !== null && x !== undefined) return; // fan-out instances re-run as a unit
    const p: { -readonly [K in keyof NodePosition]: NodePosition[K] } = {
      namespace: Object.freeze(ev.namespace.slice(0, -1)),
      nodeName: ev.nodeName,
      step: ev.step,
      attemptIndex: ev.attemptIndex,
    };
    if (ev.branchName !== undefined) p.branchName = ev.branchName;
    this.positions.push(Object.freeze(p));
  }
}

/** @internal */
export const scopeStorage = new AsyncLocalStorage<SuspensionScope>();

/** @internal the scope of the suspendable invocation `invocationId`, if this code runs in it. */
export function scopeOf(invocationId: string): SuspensionScope | undefined {
  const s = scopeStorage.getStore();
  return s !== undefined && s.invocationId === invocationId ? s : undefined;
}
