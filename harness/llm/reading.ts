/** Reading the llm-provider facets from an assertion (one call, or every call of the case). */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { HarnessPrimitiveMissing } from "../../src/conformance/errors.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { LlmCallFacet, LlmCallsFacet, type LlmCall, type WireCapture } from "./facets.ts";

export function llmCall(obs: Observation, ctx: CheckContext): LlmCall {
  return obs.get(LlmCallFacet, ctx.locate(ctx.self.path));
}

/** The call, for an assertion on its wire requests: a call whose requests were not captured (an in-process provider) cannot be asserted on. */
export function wiredCall(obs: Observation, ctx: CheckContext): LlmCall {
  const call = llmCall(obs, ctx);
  if (!call.wireCaptured) throw new HarnessPrimitiveMissing("wire capture", `'${ctx.self.key}' reads the call's wire requests, but its provider answers in-process (no network edge to capture)`, ctx.locate(ctx.self.path));
  return call;
}

export function llmCalls(obs: Observation, ctx: CheckContext): ReadonlyArray<LlmCall> {
  return obs.get(LlmCallsFacet, ctx.locate(ctx.self.path));
}

/** A short description of what a call did, for failure messages. */
export function describeCall(call: LlmCall): string {
  if (call.error !== undefined) {
    const e = call.error as { category?: string; message?: string };
    return `the call raised ${e.category ?? "an uncategorized error"}: ${e.message ?? String(call.error)}`;
  }
  return `the call returned (finish_reason ${call.response?.finish_reason ?? "n/a"})`;
}

/** The POST (model) requests of a call — `ready()` probes are GETs. */
export function completionRequests(call: LlmCall): ReadonlyArray<WireCapture> {
  return call.requests.filter((r) => r.method === "POST");
}
