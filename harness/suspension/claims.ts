/**
 * Shared reading for the named claims of the suspension and sessions fixtures (conformance-adapter
 * §5 *Named claims*): each claim is a boolean checked against what the calls of its block produced.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import * as F from "../graph/facets.ts";
import { callsOf } from "../graph/invariant-scope.ts";
import { classify, causeChain } from "../graph/reading.ts";
import { CompletedEvents, ResumeCallFacet, SuspendedOutcomeFacet, type ResumeCall, type SuspendedCall } from "./facets.ts";

/** Compare a claim's written boolean with whether it holds; name why when it was claimed but does not. */
export function claim(ctx: CheckContext, value: boolean, holds: boolean, why: () => string): void {
  ctx.match(value, holds, null);
  if (value && !holds) ctx.fail(why());
}

/** One call of the block, with what the suspension harness recorded for it. */
export interface CallView {
  readonly obs: Observation;
  readonly result: F.CallResult;
  readonly invocationId: string | null;
  readonly executionOrder: readonly string[];
  readonly suspended: SuspendedCall | undefined;
  readonly resume: ResumeCall | undefined;
  readonly events: readonly NodeEvent[];
}

export function callViews(obs: Observation, ctx: CheckContext): CallView[] {
  const where = ctx.locate(ctx.self.path);
  return callsOf(obs).map((o) => ({
    obs: o,
    result: o.get(F.Result, where),
    invocationId: o.tryGet(F.InvocationId) ?? null,
    executionOrder: o.tryGet(F.ExecutionOrder) ?? [],
    suspended: o.tryGet(SuspendedOutcomeFacet),
    resume: o.tryGet(ResumeCallFacet),
    events: o.tryGet(CompletedEvents) ?? [],
  }));
}

/** The suspension resumes among `calls`, each with the call that suspended it (if in the block). */
export function resumesOf(calls: readonly CallView[]): Array<{ readonly call: CallView; readonly from: CallView | undefined }> {
  return calls
    .filter((c) => c.resume?.kind === "suspension")
    .map((c) => ({ call: c, from: calls.find((p) => p !== c && p.suspended !== undefined && p.invocationId === c.resume!.invocationId) }));
}

/** The §5.8 category of an errored call, else null. */
export function categoryOfCall(c: CallView): string | null {
  return c.result.kind === "errored" || c.result.kind === "compile_error" ? classify(c.result.error).category : null;
}

/** The `context` of the SuspensionInUnsupportedContextError in an errored call's cause chain. */
export function unsupportedContextOf(c: CallView): string | null {
  if (c.result.kind !== "errored") return null;
  for (const l of causeChain(c.result.error)) {
    const ctx = (l.error as { category?: unknown; context?: unknown }).context;
    if ((l.error as { category?: unknown }).category === "suspension_in_unsupported_context" && typeof ctx === "string") return ctx;
  }
  return null;
}

/** The entry state of a call's run: the pre-state of its first outermost completed event. */
export function entryStateOf(c: { readonly events: readonly NodeEvent[] }): Readonly<Record<string, unknown>> | undefined {
  const first = c.events.find((e) => e.namespace.length === 1);
  if (first) return first.preState;
  const inner = c.events[0];
  return inner?.parentStates[0];
}

export function show(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
