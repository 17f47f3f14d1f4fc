import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { checkDrainSummary, DRAIN_SUMMARY_SCHEMA } from "../../harness/graph/drain-summary.ts";

/**
 * `drain_summary: {timeout_reached, undelivered_count | undelivered_count_min}`
 * (conformance-adapter §5.8): the summary the process-wide `drain()` of the invoke block returned.
 */
@directive({ name: "drain_summary", at: "expected", home: "general", summary: "what the process-wide drain returned" })
export class DrainSummaryAssertion {
  readonly scope = "call" as const;
  readonly schema = DRAIN_SUMMARY_SCHEMA;
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    checkDrainSummary(value, obs.get(F.DrainResult, ctx.locate(ctx.self.path)).summary, ctx, ctx.label);
  }
}
