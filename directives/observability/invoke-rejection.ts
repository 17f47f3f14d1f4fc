import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";
import { describeResult } from "../../harness/graph/reading.ts";

interface InvokeRejection {
  error_type: string;
  message_mentions?: string | string[];
}

/**
 * `expected_invoke_rejection: {error_type, message_mentions?}` (this project's observability note,
 * `spec/observability/conformance/151-*.yaml` header), beside `expected:`: the call's `invoke()`
 * rejected its arguments at the API boundary, before any work began (observability §3.4: a
 * caller metadata key in a reserved namespace or a reserved name). The error is the language's
 * API-boundary idiom, not a spec category, so it is named by its type (`error.name`); the error
 * carries no invocation id (none was minted). `message_mentions` lists substrings the message
 * contains.
 */
@directive({ name: "expected_invoke_rejection", at: "case", home: "observability", summary: "invoke() rejects its arguments at the API boundary" })
export class ExpectedInvokeRejection {
  readonly schema = {
    type: "object",
    required: ["error_type"],
    additionalProperties: false,
    properties: {
      error_type: { type: "string", minLength: 1 },
      message_mentions: { oneOf: [{ type: "string", minLength: 1 }, { type: "array", minItems: 1, items: { type: "string", minLength: 1 } }] },
    },
  };
  configure(_value: InvokeRejection, ctx: ConfigureContext): void {
    ctx.slot(GraphCaseHooksSlot).acceptBoundaryRejection = true;
  }
  check(value: InvokeRejection, obs: Observation, ctx: CheckContext): void {
    const rejected = obs.tryGet(F.BoundaryRejection);
    if (rejected === undefined) {
      ctx.fail(`expected invoke() to reject its arguments with a ${value.error_type}, but ${describeResult(obs.get(F.Result, ctx.locate(ctx.self.path)))}`);
      return;
    }
    ctx.match(value.error_type, rejected.name, null, `${ctx.label}.error_type`);
    const mentions = value.message_mentions === undefined ? [] : typeof value.message_mentions === "string" ? [value.message_mentions] : value.message_mentions;
    for (const m of mentions) {
      if (!rejected.message.includes(m)) ctx.fail(`${ctx.label}.message_mentions: the message ${JSON.stringify(rejected.message)} does not contain ${JSON.stringify(m)}`);
    }
  }
}
