import { expect } from "chai";
import {
  CompileError,
  GraphRuntimeError,
  isNodeEvent,
  type NodeEvent,
  type Observer,
  type ObserverEvent,
} from "../../src/graph/index.ts";

/** A recording observer. */
export function recorder(log?: string[], name?: string): Observer & { events: NodeEvent[] } {
  const events: NodeEvent[] = [];
  const fn = ((e: ObserverEvent) => {
    if (isNodeEvent(e)) {
      events.push(e);
      log?.push(`${name ?? "obs"}:${e.step}:${e.phase}:${e.namespace.join("/")}`);
    }
  }) as unknown as Observer & { events: NodeEvent[] };
  fn.events = events;
  return fn;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function compileErrorOf(fn: () => unknown): CompileError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(CompileError);
    return e as CompileError;
  }
  expect.fail("expected a CompileError");
}

export async function runtimeErrorOf(p: Promise<unknown>): Promise<GraphRuntimeError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(GraphRuntimeError);
    return e as GraphRuntimeError;
  }
  expect.fail("expected a GraphRuntimeError");
}

/** Compact event form for assertions. */
export function brief(e: NodeEvent): Record<string, unknown> {
  const o: Record<string, unknown> = { step: e.step, phase: e.phase, node: e.nodeName, ns: e.namespace.join("/") };
  if (e.postState) o["post"] = e.postState;
  if (e.error) o["error"] = e.error.category;
  return o;
}

/**
 * A fake `fetch` at the network edge: resolves after `ms`, or rejects with the signal's reason (a
 * `DOMException` named `AbortError` by default, like the real one) as soon as `init.signal` aborts.
 */
export function fakeFetch(ms: number, init: { signal?: AbortSignal } = {}): Promise<string> {
  const signal = init.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve("body");
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
