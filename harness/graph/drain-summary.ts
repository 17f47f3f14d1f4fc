/** Shared by `drain_summary` and `node_drain_summaries`: the §6 drain summary, by named keys. */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { DrainSummary } from "../../src/graph/index.ts";

export const DRAIN_SUMMARY_SCHEMA = {
  type: "object",
  minProperties: 1,
  additionalProperties: false,
  properties: {
    timeout_reached: { type: "boolean" },
    undelivered_count: { type: "integer", minimum: 0 },
    undelivered_count_min: { type: "integer", minimum: 0 },
  },
  not: { required: ["undelivered_count", "undelivered_count_min"] },
} as const;

export function checkDrainSummary(value: Record<string, unknown>, summary: DrainSummary, ctx: CheckContext, label: string): void {
  const observed = { timeout_reached: summary.timeoutReached, undelivered_count: summary.undeliveredCount };
  const { undelivered_count_min: min, ...rest } = value as { undelivered_count_min?: number } & Record<string, unknown>;
  ctx.match(rest, observed, null, label);
  if (min !== undefined && summary.undeliveredCount < min) {
    ctx.fail(`expected at least ${min} undelivered events, got ${summary.undeliveredCount}`, { path: `${label}.undelivered_count_min` });
  }
}

/** A drain call as the harness observed it (for `drain_returned_within_timeout`). */
export interface TimedDrain {
  readonly summary: DrainSummary;
  /** Wall-clock time the call took (reported in messages; never compared: a loaded machine delays timers). */
  readonly elapsedMs: number;
  readonly timeoutMs: number | null;
  /**
   * Whether the drain had returned before a deadline timer of the same duration, armed right after
   * the drain armed its own, fired. Timers of one duration fire in the order they were armed and the
   * drain's return runs in the microtasks that follow its own timer, so a drain that honours its
   * timeout always wins this race, however late the machine runs the timers; a drain that keeps
   * waiting for deliveries past its timeout loses it. `null` without a timeout.
   */
  readonly returnedByDeadline: boolean | null;
}

/**
 * Run a drain (`start` must arm its timeout timer synchronously, as the engine's `drain()` and
 * `drainEventsFor()` do) and record whether it returned by its deadline (see {@link TimedDrain}).
 */
export async function timedDrain(timeoutMs: number | null, start: () => Promise<DrainSummary>): Promise<TimedDrain> {
  const t0 = performance.now();
  const pending = start();
  let returned = false;
  let byDeadline: boolean | null = null;
  const deadline = timeoutMs === null ? undefined : setTimeout(() => (byDeadline = returned), timeoutMs);
  const summary = await pending.finally(() => {
    returned = true;
  });
  const elapsedMs = performance.now() - t0;
  if (deadline !== undefined) {
    clearTimeout(deadline);
    byDeadline ??= true; // returned before the deadline timer fired
  }
  return { summary, elapsedMs, timeoutMs, returnedByDeadline: byDeadline };
}
