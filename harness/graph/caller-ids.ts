/**
 * Caller-supplied ids of a call (conformance-adapter §5.7 `caller_invocation_id`,
 * `caller_correlation_id`): plan inputs, passed to `invoke()` through the executor's
 * `invokeOptions` extension (each call reads its own plan's values).
 */
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { GraphCaseHooksSlot } from "./extensions.ts";

/** The ids the caller supplied to the call's `invoke()` (absent keys: none supplied). */
export const CallerSuppliedIds = new Facet<{ readonly invocationId?: string; readonly correlationId?: string }>("caller-supplied ids");

const INVOCATION_ID = "caller_invocation_id";
const CORRELATION_ID = "caller_correlation_id";

class CallerIds {
  #installed = false;

  install(ctx: ConfigureContext): this {
    if (this.#installed) return this;
    this.#installed = true;
    const hooks = ctx.slot(GraphCaseHooksSlot);
    hooks.invocationDefaults.add(INVOCATION_ID).add(CORRELATION_ID);
    const ids = (plan: InvocationPlan) => {
      const invocationId = plan.input<string>(INVOCATION_ID);
      const correlationId = plan.input<string>(CORRELATION_ID);
      return { ...(invocationId !== undefined ? { invocationId } : {}), ...(correlationId !== undefined ? { correlationId } : {}) };
    };
    hooks.invokeOptions.push(({ plan }) => ids(plan));
    hooks.beforeCall.push(({ plan, observation }) => {
      observation.set(CallerSuppliedIds, ids(plan));
    });
    return this;
  }

  invocationId(plan: InvocationPlan, id: string): void {
    plan.setInput(INVOCATION_ID, id);
  }

  /** Set the call's correlation id; a second spelling for the same call (`correlation_id` beside `caller_correlation_id`) is ambiguous. */
  correlationId(plan: InvocationPlan, id: string, where: FixtureLocation): void {
    if (plan.input<string>(CORRELATION_ID) !== undefined) {
      throw new FixtureSchemaInvalid("the call names its correlation id twice (correlation_id and caller_correlation_id): write one", where);
    }
    plan.setInput(CORRELATION_ID, id);
  }
}

const CallerIdsSlot = new SlotKey<CallerIds>("caller ids", () => new CallerIds());

/** The case's caller-id inputs, with the executor hook installed. */
export function callerIds(ctx: ConfigureContext): CallerIds {
  return ctx.slot(CallerIdsSlot).install(ctx);
}
