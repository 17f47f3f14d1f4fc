/** Shared fixtures for the middleware tests: a state, flaky nodes, event recorders, fake clocks. */
import { expect } from "chai";
import {
  append,
  defineState,
  field,
  GraphRuntimeError,
  isNodeEvent,
  type NodeContext,
  type NodeEvent,
  type Observer,
  type ObserverEvent,
  type StateOf,
} from "../../../src/graph/index.ts";
import { CategorizedError, isFailureIsolationEvent, type FailureIsolationEvent } from "../../../src/pipeline/middleware/index.ts";

/** `{ v: int = 0, trace: list<string> (append) = [] }`. */
export const VT = defineState({
  v: field.int().default(0),
  trace: field.list(field.string()).default([]).reducer(append),
});
export type VTState = StateOf<typeof VT>;

/** One scripted failure; `null` = this attempt succeeds. */
export type Failure = { category?: string | null; message: string; transient?: boolean; cause?: Failure } | null;

function toError(f: NonNullable<Failure>): Error {
  const cause = f.cause ? toError(f.cause) : undefined;
  const opts = { ...(cause ? { cause } : {}), ...(f.transient !== undefined ? { transient: f.transient } : {}) };
  return f.category ? new CategorizedError(f.category, f.message, opts) : new Error(f.message, cause ? { cause } : undefined);
}

/**
 * A node that raises per `sequence[i]` on its i-th call (the harness's `flaky` mock), then returns
 * `success` (or raises the last failure again when `success` is omitted). `calls` counts calls;
 * `seen` records the attempt index each call ran under.
 */
export function flaky<U extends object>(sequence: readonly Failure[], success?: U) {
  const node = Object.assign(
    async (_s: unknown, ctx: NodeContext): Promise<U> => {
      const i = node.calls++;
      node.seen.push(ctx.attemptIndex);
      const f = i < sequence.length ? sequence[i] : success === undefined ? sequence[sequence.length - 1] : null;
      if (f) throw toError(f);
      return success as U;
    },
    { calls: 0, seen: [] as number[] },
  );
  return node;
}

/** Records every event, node events and failure-isolation events apart. */
export function allEvents(): Observer & { events: ObserverEvent[]; nodes: NodeEvent[]; isolations: FailureIsolationEvent[] } {
  const events: ObserverEvent[] = [];
  const fn = ((e: ObserverEvent) => {
    events.push(e);
  }) as unknown as Observer & { events: ObserverEvent[]; nodes: NodeEvent[]; isolations: FailureIsolationEvent[] };
  Object.defineProperties(fn, {
    events: { get: () => events },
    nodes: { get: () => events.filter(isNodeEvent) },
    isolations: { get: () => events.filter(isFailureIsolationEvent) },
  });
  return fn;
}

/** A monotonic clock stub advancing `stepMs` per read (the fixtures' `deterministic_monotonic`). */
export function steppingClock(stepMs: number): (() => number) & { reads: number } {
  let t = 1000;
  const clock = Object.assign(
    () => {
      clock.reads++;
      const now = t;
      t += stepMs;
      return now;
    },
    { reads: 0 },
  );
  return clock;
}

/** A sleep stub: records requested seconds, never waits. */
export function fakeSleep(): ((seconds: number) => Promise<void>) & { calls: number[] } {
  const calls: number[] = [];
  return Object.assign(async (seconds: number) => {
    calls.push(seconds);
  }, { calls });
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

/** Compact node-event form: [phase, attempt_index, outcome]. */
export function pairs(events: readonly NodeEvent[]): [string, number, string][] {
  return events.map((e) => [e.phase, e.attemptIndex, e.error ? e.error.category : e.postState ? "ok" : "-"]);
}
