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
