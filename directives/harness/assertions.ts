/**
 * The harness fixtures' per-transmission assertions (harness conformance directory; the harness
 * note in fixture 001's header names `dispatch_path`, `invoke_outcome`, `invoke_args`,
 * `error_category` + `error_bucket`; the others are defined by the fixtures that write them). Each
 * reads the turn the library's `TurnHarness` returned for the transmission and what the runner
 * recorded around it (`harness/turns/`).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { resolveInvocationPlaceholder } from "../../harness/suspension/placeholders.ts";
import { claim } from "../../harness/suspension/claims.ts";
import { snake, turnOf, type TurnView } from "../../harness/turns/reading.ts";

const HOME = "harness";
const BOOL = { type: "boolean" } as const;

type TransmissionTurn = TurnView & { transmission: NonNullable<TurnView["transmission"]> };

function transmissionTurn(obs: Observation, ctx: CheckContext): TransmissionTurn | null {
  const t = turnOf(obs, ctx);
  if (t === null) return null;
  if (t.transmission === undefined) {
    ctx.fail(`'${ctx.self.key}' reads a transmission's turn, but the call was a chat turn`);
    return null;
  }
  return t as TransmissionTurn;
}

/** A per-call assertion on a transmission's turn: fails directly when the call has none (a chat turn, no harness). */
abstract class TransmissionAssertion<V> {
  readonly scope = "call" as const;
  check(value: V, obs: Observation, ctx: CheckContext): void {
    const t = transmissionTurn(obs, ctx);
    if (t !== null) this.checkTurn(value, t, ctx);
  }
  protected abstract checkTurn(value: V, t: TransmissionTurn, ctx: CheckContext): void;
}

/** A boolean named claim on a transmission's turn ({@link claim}: when claimed but not holding, `why` names the reason). */
abstract class TransmissionClaim extends TransmissionAssertion<boolean> {
  readonly schema = BOOL;
  protected checkTurn(value: boolean, t: TransmissionTurn, ctx: CheckContext): void {
    claim(ctx, value, this.holds(t), () => this.why(t));
  }
  protected abstract holds(t: TransmissionTurn): boolean;
  protected abstract why(t: TransmissionTurn): string;
}

/** `invoke_outcome: completed | errored | suspended` — how the turn's `invoke()` ended (harness §4 turn exit). */
@directive({ name: "invoke_outcome", at: "expected", home: HOME, summary: "the outcome of the turn's invoke()" })
export class InvokeOutcome extends TransmissionAssertion<string> {
  readonly schema = { enum: ["completed", "errored", "suspended"] };
  protected checkTurn(value: string, t: TransmissionTurn, ctx: CheckContext): void {
    ctx.match(value, t.outcome, null);
  }
}

interface InvokeArgsValue {
  session_id_present?: boolean;
  session_id?: string;
  session_id_auto_generated?: boolean;
  session_id_absent_verified?: boolean;
  resume_invocation?: string;
  signal_payload?: Record<string, unknown>;
}

/**
 * `invoke_args: {...}` — the arguments the harness passed to `invoke()` (harness §3 step 3), each
 * sub-key asserting only when present:
 * - `session_id_present`: a session id was threaded into the call;
 * - `session_id`: the session id threaded into the call, and bound in the engine while every node
 *   of the turn ran (the caller-supplied id of §3.1 / §3.2 step 1, not a re-minted one);
 * - `session_id_auto_generated`: the harness minted it (§3.1), the transmission carried none;
 * - `session_id_absent_verified: true`: no session id was passed AND the engine had none bound
 *   while the graph ran (read inside the invocation, not from the harness's report);
 * - `resume_invocation`: the paused invocation resumed (§3.3), a literal or an input placeholder
 *   naming an earlier transmission (`<from tx_x suspended outcome>`);
 * - `signal_payload`: the payload passed on resume, exact.
 */
@directive({ name: "invoke_args", at: "expected", home: HOME, summary: "the arguments the harness passed to invoke()" })
export class InvokeArgs extends TransmissionAssertion<InvokeArgsValue> {
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    properties: {
      session_id_present: BOOL,
      session_id: { type: "string", minLength: 1 },
      session_id_auto_generated: BOOL,
      session_id_absent_verified: BOOL,
      resume_invocation: { type: "string", minLength: 1 },
      signal_payload: { type: "object" },
    },
  };
  protected checkTurn(value: InvokeArgsValue, t: TransmissionTurn, ctx: CheckContext): void {
    const inv = t.transmission.turn.invocation;
    if (inv === undefined) return ctx.fail("the harness made no invoke() call for this transmission", { actual: t.transmission.turn.outbound });
    const l = ctx.label;
    if (value.session_id_present !== undefined) ctx.match(value.session_id_present, inv.sessionId !== undefined, null, `${l}.session_id_present`);
    if (value.session_id !== undefined) {
      ctx.match(value.session_id, inv.sessionId ?? null, null, `${l}.session_id`);
      const unbound = t.call.engineSessionIds.filter((s) => s !== value.session_id);
      if (t.call.events.length === 0) ctx.fail("no node ran, so the session bound in the engine could not be read", { path: `${l}.session_id` });
      else if (unbound.length > 0) ctx.fail(`a node ran with session ${JSON.stringify(unbound[0] ?? null)} bound in the engine, not ${JSON.stringify(value.session_id)}`, { path: `${l}.session_id` });
    }
    if (value.session_id_auto_generated !== undefined) {
      const minted = t.transmission.turn.sessionIdGenerated && inv.sessionId !== undefined && t.transmission.transmission.sessionId === undefined && t.transmission.transmission.payload?.["session_id"] === undefined;
      ctx.match(value.session_id_auto_generated, minted, null, `${l}.session_id_auto_generated`);
    }
    if (value.session_id_absent_verified !== undefined) {
      const engineSaw = t.call.engineSessionIds.filter((s) => s !== undefined);
      const absent = !("sessionId" in inv) && t.call.events.length > 0 && engineSaw.length === 0;
      claim(ctx, value.session_id_absent_verified, absent, () =>
        "sessionId" in inv ? `the harness passed session_id ${JSON.stringify(inv.sessionId)}` : engineSaw.length > 0 ? `the engine had session ${JSON.stringify(engineSaw[0])} bound` : "no node ran, so the engine side could not be verified",
      );
    }
    if (value.resume_invocation !== undefined) {
      const want = resolveInvocationPlaceholder(value.resume_invocation, t.call.previous, ctx.locate([...ctx.self.path, "resume_invocation"]));
      ctx.match(want, inv.resumeInvocation ?? null, null, `${l}.resume_invocation`);
    }
    if (value.signal_payload !== undefined) ctx.match(value.signal_payload, inv.signalPayload ?? null, Shapes.exact(), `${l}.signal_payload`);
  }
}

/** `outbound_shape: completion_response | error_response | suspended_acknowledgment` — the harness §5 outbound shape. */
@directive({ name: "outbound_shape", at: "expected", home: HOME, summary: "the turn's outbound shape (harness §5)" })
export class OutboundShape extends TransmissionAssertion<string> {
  readonly schema = { enum: ["completion_response", "error_response", "suspended_acknowledgment"] };
  protected checkTurn(value: string, t: TransmissionTurn, ctx: CheckContext): void {
    ctx.match(value, t.transmission.turn.outbound.kind, null);
  }
}

/**
 * `outbound_payload_includes: {...}` — the outbound payload by named keys: a completion's final
 * state fields; an error response's `category`, `bucket`, `diagnostic_message`, `retry_safe`,
 * `intervention_required`, `user_action_required`; a suspended acknowledgment's `invocation_id`,
 * `signal_id`, `metadata`.
 */
@directive({ name: "outbound_payload_includes", at: "expected", home: HOME, summary: "the outbound payload, by named keys" })
export class OutboundPayloadIncludes extends TransmissionAssertion<Record<string, unknown>> {
  readonly schema = { type: "object", minProperties: 1 };
  protected checkTurn(value: Record<string, unknown>, t: TransmissionTurn, ctx: CheckContext): void {
    const out = t.transmission.turn.outbound;
    const payload = out.kind === "completion_response" ? out.payload : snake(out.payload);
    ctx.match(value, payload, Shapes.named());
  }
}

/** `descriptor_read_from_outcome: <bool>` — §5.3 step 1: the subscription carries the suspended outcome's own descriptor. */
@directive({ name: "descriptor_read_from_outcome", at: "expected", home: HOME, summary: "the subscription's descriptor is the outcome's (§5.3 step 1)" })
export class DescriptorReadFromOutcome extends TransmissionClaim {
  protected holds(t: TransmissionTurn): boolean {
    const turn = t.transmission.turn;
    return turn.outcome === "suspended" && JSON.stringify(turn.subscription.descriptor) === JSON.stringify(turn.result.descriptor) && turn.result.record.descriptor.signalId === turn.descriptor.signalId;
  }
  protected why(t: TransmissionTurn): string {
    return t.outcome !== "suspended" ? `the turn ${t.outcome}` : "the subscription's descriptor differs from the suspended outcome's";
  }
}

/** `signal_subscription_registered: <bool>` — §5.3 step 2 / §6: once the turn returned, the coordinator holds a subscription for the paused invocation. */
@directive({ name: "signal_subscription_registered", at: "expected", home: HOME, summary: "the coordinator holds the paused invocation's subscription" })
export class SignalSubscriptionRegistered extends TransmissionClaim {
  protected holds(t: TransmissionTurn): boolean {
    const turn = t.transmission.turn;
    const sub = turn.outcome === "suspended" ? t.call.subscriptionsAfter.find((s) => s.invocationId === turn.invocationId) : undefined;
    return sub !== undefined && sub.descriptor.signalId === (turn as { descriptor: { signalId: string } }).descriptor.signalId;
  }
  protected why(t: TransmissionTurn): string {
    return t.outcome !== "suspended" ? `the turn ${t.outcome}` : "the coordinator holds no subscription for the paused invocation";
  }
}

/**
 * `harness_did_not_block: <bool>` — §5.3 step 4: the turn returned while its invocation was still
 * paused (the persisted record's status `suspended` when the call returned) and no signal reached
 * the harness during the call — it did not wait for one.
 */
@directive({ name: "harness_did_not_block", at: "expected", home: HOME, summary: "the suspended turn returned without waiting for its signal" })
export class HarnessDidNotBlock {
  readonly scope = "call" as const;
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const t = turnOf(obs, ctx);
    if (t !== null) claimDidNotBlock(ctx, value, t);
  }
}

export function claimDidNotBlock(ctx: CheckContext, value: boolean, t: TurnView): void {
  const status = t.call.pausedAtReturn?.status;
  claim(ctx, value, t.outcome === "suspended" && status === "suspended" && t.call.signalsDuringCall === 0, () =>
    t.outcome !== "suspended" ? `the turn ${t.outcome}` : `when the turn returned the paused record was ${status ?? "absent"} and ${t.call.signalsDuringCall} signal(s) had arrived`,
  );
}

/** `signal_correlation_resolved: <bool>` — §6: the coordinator mapped the arriving signal to a paused invocation. */
@directive({ name: "signal_correlation_resolved", at: "expected", home: HOME, summary: "the signal was correlated to a paused invocation" })
export class SignalCorrelationResolved extends TransmissionClaim {
  protected holds(t: TransmissionTurn): boolean {
    const turn = t.transmission.turn;
    return turn.path === "3.3" && turn.resumedInvocationId !== undefined;
  }
  protected why(t: TransmissionTurn): string {
    const turn = t.transmission.turn;
    return turn.path !== "3.3" ? `the turn took path ${String(turn.path)}, not the signal-resume path` : `correlation failed: ${turn.outcome === "errored" ? turn.error.message : "?"}`;
  }
}

/** `resolved_to_invocation_id: <id | placeholder>` — the paused invocation the signal was correlated to. */
@directive({ name: "resolved_to_invocation_id", at: "expected", home: HOME, summary: "the invocation the signal correlated to" })
export class ResolvedToInvocationId extends TransmissionAssertion<string> {
  readonly schema = { type: "string", minLength: 1 };
  protected checkTurn(value: string, t: TransmissionTurn, ctx: CheckContext): void {
    const want = resolveInvocationPlaceholder(value, t.call.previous, ctx.locate(ctx.self.path));
    ctx.match(want, t.transmission.turn.resumedInvocationId ?? null, null);
  }
}

/**
 * `harness_auto_retried: <bool>` — whether the harness retried the turn by itself: more than one
 * `invoke()` for the transmission, or more than one session load in it.
 */
@directive({ name: "harness_auto_retried", at: "expected", home: HOME, summary: "the harness re-ran the turn by itself" })
export class HarnessAutoRetried extends TransmissionAssertion<boolean> {
  readonly schema = BOOL;
  protected checkTurn(value: boolean, t: TransmissionTurn, ctx: CheckContext): void {
    const attempts = t.transmission.turn.attempts;
    const loads = t.call.storeCalls?.load ?? 0;
    ctx.match(value, attempts > 1 || loads > 1, null);
  }
}
