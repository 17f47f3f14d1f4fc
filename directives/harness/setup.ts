/**
 * The harness fixtures' set-up keys (harness conformance directory, its harness note in fixture
 * 001's header): the `harness:` block, the `transmissions:` list with its per-transmission keys,
 * and the refinements of general keys the directory writes differently — `session_store` with a
 * synthetic `behavior`, `checkpointer`, and the `raises: {category, message}` node. The
 * harness-chat bundle registers the shared ones for its own directory.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { HarnessPrimitiveMissing } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { DispatchIntent, HarnessMode, Transmission } from "../../src/harness/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { TRANSMISSION, turnCase } from "../../harness/turns/case.ts";
import { configureCallList } from "../../harness/turns/call-list.ts";
import { CheckpointerDirective } from "../general/checkpointer.ts";
import { Expected } from "../general/expected.ts";
import { Raises, raisesSchema } from "../general/raises.ts";
import { SessionStoreDirective } from "../general/session-store.ts";
import { SuspendWithDescriptor, suspendWith, type DescriptorValue } from "../general/suspend-with-descriptor.ts";

/** `harness: {mode, signal_coordinator?}` — the reference harness the case runs every call through. */
export class HarnessBlock {
  readonly schema = {
    type: "object",
    required: ["mode"],
    additionalProperties: false,
    properties: { mode: { enum: ["sessioned", "stateless"] }, signal_coordinator: { enum: ["in_memory"] } },
  };
  configure(value: { mode: HarnessMode; signal_coordinator?: "in_memory" }, ctx: ConfigureContext): void {
    turnCase(ctx).mode = { value: value.mode, path: [...ctx.self.path, "mode"] };
  }
}
directive({ name: "harness", at: "case", home: "harness", summary: "the harness under test: mode and signal coordinator (harness §2, §6)" })(HarnessBlock);

/**
 * `session_store: in_memory | {type: in_memory, behavior: {load_raises: <category>}}` — the general
 * definition, plus the synthetic injection: the in-memory store's `load()` raises. The store is
 * registered with the harness's graph (not the suspension/sessions runner).
 */
export class HarnessSessionStore extends SessionStoreDirective {
  override readonly schema = {
    oneOf: [
      { type: "string", minLength: 1 },
      {
        type: "object",
        required: ["type"],
        additionalProperties: false,
        properties: {
          type: { type: "string", minLength: 1 },
          behavior: { type: "object", additionalProperties: false, properties: { load_raises: { type: "string", minLength: 1 } } },
        },
      },
    ],
  } as unknown as SessionStoreDirective["schema"];
  override configure(value: string | { type: string; behavior?: { load_raises?: string } }, ctx: ConfigureContext): void {
    const type = typeof value === "string" ? value : value.type;
    if (type !== "in_memory") throw new HarnessPrimitiveMissing(`session_store: ${type}`, "this adapter provides the in_memory SessionStore only", ctx.locate(ctx.self.path));
    const loadRaises = typeof value === "string" ? undefined : value.behavior?.load_raises;
    turnCase(ctx).store = { loadRaises, path: ctx.self.path };
  }
}
directive({ name: "session_store", at: "case", home: "harness", summary: "the SessionStore; behavior.load_raises injects a failing load" })(HarnessSessionStore);

/** `checkpointer: in_memory` — where the harness's paused invocations persist (suspension §8.5). */
export class HarnessCheckpointer extends CheckpointerDirective {
  override readonly schema = { enum: ["in_memory"] } as unknown as CheckpointerDirective["schema"];
  override configure(_value: string, ctx: ConfigureContext): void {
    turnCase(ctx); // the harness persists paused records through an InMemoryCheckpointer
  }
}
directive({ name: "checkpointer", at: "case", home: "harness", summary: "in_memory: paused invocations persist in memory" })(HarnessCheckpointer);

/** `raises: "<message>"` (general) or `raises: {category, message}` — the node raises an error carrying that category (the general definition implements it). */
export class CategorizedRaises extends Raises {
  override readonly schema: JsonSchema = raisesSchema({
    required: ["category", "message"],
    properties: { category: { type: "string", minLength: 1 }, message: { type: "string" } },
  });
}
directive({ name: "raises", at: "node", home: "harness", summary: "raise; {category, message} raises a categorized error" })(CategorizedRaises);

/** `suspend_with_descriptor` (general): the node calls `suspend()`; the harness, not the suspension runner, persists it. */
export class HarnessSuspendWithDescriptor extends SuspendWithDescriptor {
  override contribute(value: DescriptorValue, node: NodeAssembly, _env: BuildEnv, _at: KeyPath): void {
    node.steps.push(() => suspendWith(value));
  }
}
directive({ name: "suspend_with_descriptor", at: "node", home: "harness", summary: "the node body calls suspend(descriptor)" })(HarnessSuspendWithDescriptor);

/**
 * `transmissions: [...]` — one harness turn each, in order, against one harness (shared store,
 * coordinator and paused records). Each entry's keys resolve at the `transmission` position:
 * `payload`, `dispatch_intent`, `session_id`, `signal_payload`, `expected`.
 */
@directive({ name: "transmissions", at: "case", home: "harness", summary: "inbound transmissions, one harness turn each" })
export class Transmissions {
  readonly schema = { type: "array", minItems: 1, items: { type: "object" } };
  async configure(value: Array<Record<string, unknown>>, ctx: ConfigureContext): Promise<void> {
    const st = turnCase(ctx);
    await configureCallList(value, ctx, "transmission", "transmission", (plan) => {
      plan.setInput(TRANSMISSION, toTransmission(plan.input<Partial<Mutable<Transmission>>>(PARTS) ?? {}, st.mode?.value));
    });
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const PARTS = "harness.transmission_parts";

function parts(ctx: ConfigureContext): Partial<Mutable<Transmission>> {
  let p = ctx.plan.input<Partial<Mutable<Transmission>>>(PARTS);
  if (p === undefined) ctx.plan.setInput(PARTS, (p = {}));
  return p;
}

/**
 * The transmission the harness receives. A signal-resume transmission carries its correlation in
 * the payload (harness §3.3, §6): the `signal_id` the subscription registered and / or the paused
 * `invocation_id` (as a `POST /callback/<invocation_id>` transport would). An `invocation_id`
 * written as an input placeholder (`"<from tx_initial_suspends suspended outcome>"`) is resolved
 * from the earlier calls' outcomes before the transmission is sent (conformance-adapter §5.7,
 * §5.10, §6.5) — see {@link resolveTransmission}.
 */
function toTransmission(p: Partial<Mutable<Transmission>>, _mode: HarnessMode | undefined): Transmission {
  const payload = p.payload ?? {};
  const signalId = payload["signal_id"];
  const invocationId = payload["invocation_id"];
  const resume = p.intent === "signal_resume";
  return {
    payload,
    ...(p.intent !== undefined ? { intent: p.intent } : {}),
    ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
    ...(resume
      ? { signal: { ...(typeof signalId === "string" ? { signalId } : {}), ...(typeof invocationId === "string" ? { invocationId } : {}) } }
      : {}),
    ...(p.signalPayload !== undefined ? { signalPayload: p.signalPayload } : {}),
  };
}

/** `payload: {...}` — the inbound payload (a `session_id` key in it is what the session resolver reads). */
@directive({ name: "payload", at: "transmission", home: "harness", summary: "the inbound payload" })
export class Payload {
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    parts(ctx).payload = value;
  }
}

/** `dispatch_intent: new_session | existing_session | signal_resume` — the transport's routing of the transmission. */
@directive({ name: "dispatch_intent", at: "transmission", home: "harness", summary: "how the transport routes the transmission (§3.4)" })
export class DispatchIntentDirective {
  readonly schema = { enum: ["new_session", "existing_session", "signal_resume"] };
  configure(value: DispatchIntent, ctx: ConfigureContext): void {
    parts(ctx).intent = value;
  }
}

/** `session_id: <id>` — carried by the transport outside the payload (a header, a URL segment). */
@directive({ name: "session_id", at: "transmission", home: "harness", summary: "the session id the transport carries" })
export class TransmissionSessionId {
  readonly schema = { type: "string" };
  configure(value: string, ctx: ConfigureContext): void {
    parts(ctx).sessionId = value;
  }
}

/** `signal_payload: {...}` — merged into the paused state on a signal resume (suspension §6). */
@directive({ name: "signal_payload", at: "transmission", home: "harness", summary: "the arriving signal's payload" })
export class TransmissionSignalPayload {
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    parts(ctx).signalPayload = value;
  }
}

/** `expected:` inside a transmission: the assertions on that turn. */
export class TurnExpected extends Expected {}
directive({ name: "expected", at: "transmission", home: "harness", summary: "assertions on the transmission's turn" })(TurnExpected);
