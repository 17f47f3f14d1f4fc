/** Reading what the turn-harness runner recorded, for assertions and named claims. */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { ErrorBucket } from "../../src/harness/index.ts";
import { callsOf } from "../graph/invariant-scope.ts";
import { classify } from "../graph/reading.ts";
import { ChatCallFacet, TransmissionFacet, TurnCallFacet, type ChatCall, type TransmissionCall, type TurnCall } from "./facets.ts";

/** What the harness / harness-chat turn of one call reported, whichever harness ran it. */
export interface TurnView {
  readonly obs: Observation;
  readonly call: TurnCall;
  readonly transmission: TransmissionCall | undefined;
  readonly chat: ChatCall | undefined;
  readonly path: string | null;
  readonly outcome: "completed" | "errored" | "suspended";
  readonly invocationId: string | undefined;
  /** Errored turns: the bucket the harness chose and the raised error. */
  readonly bucket: ErrorBucket | undefined;
  readonly error: unknown;
}

export function viewOf(obs: Observation): TurnView | undefined {
  const call = obs.tryGet(TurnCallFacet);
  if (call === undefined) return undefined;
  const t = obs.tryGet(TransmissionFacet);
  const c = obs.tryGet(ChatCallFacet);
  if (t !== undefined) {
    const turn = t.turn;
    return {
      obs,
      call,
      transmission: t,
      chat: undefined,
      path: turn.path,
      outcome: turn.outcome,
      invocationId: turn.invocationId,
      bucket: turn.outcome === "errored" ? turn.error.bucket : undefined,
      error: turn.outcome === "errored" ? turn.error.error : undefined,
    };
  }
  const o = c!.outcome;
  return {
    obs,
    call,
    transmission: undefined,
    chat: c,
    path: o.path,
    outcome: o.outcome,
    invocationId: o.outcome === "errored" ? undefined : o.invocationId,
    bucket: o.outcome === "errored" ? o.errorBucket : undefined,
    error: o.outcome === "errored" ? o.error.error : undefined,
  };
}

/** The one call's turn, or a direct failure naming why there is none. */
export function turnOf(obs: Observation, ctx: CheckContext): TurnView | null {
  const v = viewOf(obs);
  if (v === undefined) {
    ctx.fail(`'${ctx.self.key}' reads a harness turn, but the call was not run through the turn harness (no 'harness:' block in the case)`);
    return null;
  }
  return v;
}

/** Every harness turn the block covers, in call order. */
export function turnsOf(obs: Observation): TurnView[] {
  return callsOf(obs).map(viewOf).filter((v): v is TurnView => v !== undefined);
}

/** The concrete category of an errored turn, by the §5.8 category rule. */
export function errorCategoryOf(v: TurnView): string | null {
  return v.outcome === "errored" ? classify(v.error).category : null;
}

/** The diagnostic an errored turn's error carries: the message of the link the category came from. */
export function diagnosticOf(v: TurnView): string | null {
  return v.outcome === "errored" ? classify(v.error).message : null;
}

/** Mapping keys of the library's camelCase records as the fixtures write them (snake_case). */
export function snake(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
}
