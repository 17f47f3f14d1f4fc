import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { PausedBackendAfterCall } from "../../harness/suspension/facets.ts";

interface CheckpointerAssertionsValue {
  record_type?: "suspended" | "checkpoint";
  paused_invocation_record_exists?: boolean;
}

/**
 * `checkpointer_assertions: {record_type, ...}` (conformance-adapter §5.6, suspension §8.5): what
 * the persistence backend holds for the call's invocation once the call ended. `record_type` is
 * the kind of record as the adapter determines it — `suspended` when the Checkpointer holds the
 * library's paused-invocation envelope (its discriminator), `checkpoint` for a checkpoint record.
 * `paused_invocation_record_exists` (fixture 013's claim sub-key): a paused record is held.
 */
@directive({ name: "checkpointer_assertions", at: "expected", home: "general", summary: "what the Checkpointer backend holds after the call" })
export class CheckpointerAssertions {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    properties: { record_type: { enum: ["suspended", "checkpoint"] }, paused_invocation_record_exists: { type: "boolean" } },
  };
  check(value: CheckpointerAssertionsValue, obs: Observation, ctx: CheckContext): void {
    const view = obs.get(PausedBackendAfterCall, ctx.locate(ctx.self.path));
    if (value.record_type !== undefined) {
      ctx.match(value.record_type, view.recordType === "none" ? null : view.recordType, null, `${ctx.label}.record_type`);
    }
    if (value.paused_invocation_record_exists !== undefined) {
      ctx.match(value.paused_invocation_record_exists, view.paused !== undefined, null, `${ctx.label}.paused_invocation_record_exists`);
    }
  }
}
