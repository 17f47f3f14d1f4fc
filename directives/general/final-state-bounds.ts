import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { completedState } from "../../harness/graph/reading.ts";

/** `final_state_bounds: {<field>: {min, max}}` (conformance-adapter §5.8): inclusive numeric bounds. */
@directive({ name: "final_state_bounds", at: "expected", home: "general", summary: "numeric bounds on final-state fields" })
export class FinalStateBounds {
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: {
      type: "object",
      minProperties: 1,
      additionalProperties: false,
      properties: { min: { type: "number" }, max: { type: "number" } },
    },
  };
  check(value: Record<string, { min?: number; max?: number }>, obs: Observation, ctx: CheckContext): void {
    const state = completedState(obs, ctx);
    if (state === null) return;
    for (const [field, b] of Object.entries(value)) {
      const v = state[field];
      const path = `${ctx.label}.${field}`;
      if (typeof v !== "number") {
        ctx.fail(`expected a number, got ${JSON.stringify(v)}`, { path });
        continue;
      }
      if (b.min !== undefined && v < b.min) ctx.fail(`expected >= ${b.min}, got ${v}`, { path });
      if (b.max !== undefined && v > b.max) ctx.fail(`expected <= ${b.max}, got ${v}`, { path });
    }
  }
}
