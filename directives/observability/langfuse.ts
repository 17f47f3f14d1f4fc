/**
 * Langfuse directives (conformance-adapter §5.5 *Langfuse observer composition*, §6.4; observability
 * §8): the observer configuration blocks and the trace assertions, read from the §6.4 fake's
 * recorded side — the Langfuse spans the real observer emitted, decoded as Langfuse ingests them.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { capturedLangfuseAll, isLangfuseObservationSpan, isPayloadBearing, useLangfuseCapture, type RecordedTrace } from "../../harness/observability/langfuse.ts";
import { GlobalSpanCapture, useGlobalOtel } from "../../harness/observability/global-otel.ts";
import { capturedSpans, truncationEntriesHold } from "../../harness/observability/spans.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/**
 * A §8.4.1 caller hook (`trace_input_from_state` / `trace_output_from_state`): `{field: <name>}`
 * returns that state field's value, `{returns: <value>}` a constant; null falls through to the next
 * lever of the decision tree. (The seed defers the form to fixture 037, absent from the snapshot;
 * this is the project's form, documented in docs/vocabulary.md.)
 */
const HOOK: JsonSchema = {
  oneOf: [
    { type: "object", required: ["field"], properties: { field: { type: "string", minLength: 1 } }, additionalProperties: false },
    { type: "object", required: ["returns"], properties: { returns: {} }, additionalProperties: false },
  ],
};

type Hook = { field: string } | { returns: unknown };

const CONFIG: JsonSchema = {
  type: "object",
  properties: {
    disable_llm_spans: { type: "boolean" },
    disable_provider_payload: { type: "boolean" },
    disable_state_payload: { type: "boolean" },
    payload_byte_cap: { type: "integer", minimum: 1 },
    trace_input_from_state: HOOK,
    trace_output_from_state: HOOK,
  },
  additionalProperties: false,
};

interface Config {
  disable_llm_spans?: boolean;
  disable_provider_payload?: boolean;
  disable_state_payload?: boolean;
  payload_byte_cap?: number;
  trace_input_from_state?: Hook;
  trace_output_from_state?: Hook;
}

/** The hook a {@link HOOK} value describes. */
function hookOf(h: Hook): (state: unknown) => unknown {
  if ("field" in h) return (state) => (typeof state === "object" && state !== null ? ((state as Record<string, unknown>)[h.field] ?? null) : null);
  return () => h.returns;
}

function configureObserver(value: Config, ctx: ConfigureContext): void {
  const o = useLangfuseCapture(ctx).options;
  if (value.trace_input_from_state !== undefined) o.traceInputFromState = hookOf(value.trace_input_from_state);
  if (value.trace_output_from_state !== undefined) o.traceOutputFromState = hookOf(value.trace_output_from_state);
  if (value.disable_provider_payload !== undefined) o.disableProviderPayload = value.disable_provider_payload;
  if (value.disable_state_payload !== undefined) o.disableStatePayload = value.disable_state_payload;
  if (value.payload_byte_cap !== undefined) o.payloadByteCap = value.payload_byte_cap;
  if (value.disable_llm_spans !== undefined) o.disableLlmSpans = value.disable_llm_spans;
}

/** `langfuse_observer: {...}` (§5.5): compose the Langfuse observer with these flags (an empty block composes it with defaults). */
@directive({ name: "langfuse_observer", at: "case", home: "general", summary: "compose the Langfuse observer (flags)" })
export class LangfuseObserverDirective {
  readonly schema = CONFIG;
  configure(value: Config, ctx: ConfigureContext): void {
    configureObserver(value, ctx);
  }
}

/** `langfuse_observer_config: {...}` (fixture 059): the same block under its older name. */
@directive({ name: "langfuse_observer_config", at: "case", home: "observability", summary: "compose the Langfuse observer (older spelling of langfuse_observer)" })
export class LangfuseObserverConfig {
  readonly schema = CONFIG;
  configure(value: Config, ctx: ConfigureContext): void {
    configureObserver(value, ctx);
  }
}

const METADATA: Shape = Shapes.document({ mapping: "named" });
const KEYS_ABSENT: Shape = Shapes.keysAbsent();
/** `metadata_truncation` (§5.5, proposal 0119): each named metadata field present and truncated per §5.5.5. */
const METADATA_TRUNCATION: Shape = Shapes.equivalent((exp, act) => {
  const { metadata, fullPayloads } = act as { metadata: Record<string, unknown>; fullPayloads: readonly string[] };
  return truncationEntriesHold(exp, metadata, fullPayloads);
});

/** An observation entry: named keys; metadata a subset (§5.5), metadata_absent, metadata_truncation, children unordered. */
export const OBSERVATION_ENTRY: Shape = Shapes.recursive((self) =>
  Shapes.named({
    keys: {
      metadata: METADATA,
      metadata_absent: KEYS_ABSENT,
      metadata_truncation: METADATA_TRUNCATION,
      usage: METADATA,
      usageDetails: METADATA,
      modelParameters: METADATA,
      input: Shapes.document(),
      output: Shapes.document(),
      input_parses_as_messages: Shapes.document(),
      children: Shapes.list("unordered", self),
    },
  }),
);

/** A trace entry: named keys; metadata a subset; top-level observations unordered. */
export const TRACE_ENTRY: Shape = Shapes.named({
  keys: { metadata: METADATA, input: Shapes.document(), output: Shapes.document(), observations: Shapes.list("unordered", OBSERVATION_ENTRY) },
});

/**
 * The record an entry is matched against (metadata_absent reads the metadata map,
 * metadata_truncation the metadata map and the call's untruncated payloads, prompt_entity_link the
 * Prompt entity the native prompt link resolved to in the fake's project).
 */
function view(t: RecordedTrace, fullPayloads: readonly string[] = []): Record<string, unknown> {
  const obs = (o: RecordedTrace["observations"][number]): Record<string, unknown> => {
    const { startTime: _t, children, ...rest } = o;
    // prompt_entity_link (fixture 024, §8.4.4): the Prompt entity the Generation's native prompt link
    // resolved to; prompt_entity_link_absent: no link was passed to the SDK at all.
    const link = o.promptId ?? undefined;
    const linkAbsent = o.promptName === undefined;
    // input_parses_as_messages (fixture 023): the Generation input, parsed back to the message list.
    // input_is_raw_string_with_marker (fixture 023): a truncated input stays the raw string, marker kept (§8.7).
    const truncated = typeof o.input === "string" && /\u2026\[truncated, \d+ bytes total\]$/.test(o.input);
    return {
      ...rest,
      metadata_absent: o.metadata,
      metadata_truncation: { metadata: o.metadata, fullPayloads },
      usage: o.usageDetails,
      input_parses_as_messages: o.input,
      input_is_raw_string_with_marker: truncated,
      ...(link !== undefined ? { prompt_entity_link: link } : {}),
      prompt_entity_link_absent: linkAbsent,
      children: children.map(obs),
    };
  };
  return { ...t, observations: t.observations.map(obs) };
}

const TRUNCATION_SUBKEYS: Readonly<Record<string, string>> = { max_bytes: "integer", marker_pattern: "string", utf8_valid: "boolean", prefix_of_full_serialization: "boolean" };

/**
 * The observation entries' absence / truncation forms, checked before anything runs (§5.5):
 * `metadata_absent` is a list of keys; `metadata_truncation` maps each key to at least one of the
 * four sub-keys (an empty entry would assert nothing), typed as attribute_truncation's.
 */
function checkObservationEntries(trace: unknown, path: KeyPath, ctx: ConfigureContext): void {
  const observations = (trace as { observations?: unknown } | null)?.observations;
  if (!Array.isArray(observations)) return;
  const visit = (o: unknown, at: KeyPath): void => {
    if (typeof o !== "object" || o === null) return;
    const entry = o as Record<string, unknown>;
    const absent = entry["metadata_absent"];
    if (absent !== undefined && !(Array.isArray(absent) && absent.every((k) => typeof k === "string"))) {
      throw new FixtureSchemaInvalid("metadata_absent must be a list of metadata keys", ctx.locate([...at, "metadata_absent"]));
    }
    const truncation = entry["metadata_truncation"];
    if (truncation !== undefined) {
      const where = [...at, "metadata_truncation"];
      if (typeof truncation !== "object" || truncation === null || Array.isArray(truncation)) throw new FixtureSchemaInvalid("metadata_truncation must map metadata keys to truncation checks", ctx.locate(where));
      for (const [key, spec] of Object.entries(truncation)) {
        const keys = typeof spec === "object" && spec !== null && !Array.isArray(spec) ? Object.entries(spec) : [];
        if (keys.length === 0) throw new FixtureSchemaInvalid(`metadata_truncation.${key} must carry at least one of ${Object.keys(TRUNCATION_SUBKEYS).join(", ")}`, ctx.locate([...where, key]));
        for (const [sub, v] of keys) {
          const type = TRUNCATION_SUBKEYS[sub];
          if (type === undefined) throw new FixtureSchemaInvalid(`metadata_truncation.${key}: unknown sub-key '${sub}' (known: ${Object.keys(TRUNCATION_SUBKEYS).join(", ")})`, ctx.locate([...where, key, sub]));
          const ok = type === "integer" ? Number.isInteger(v) && (v as number) >= 0 : typeof v === type;
          if (!ok) throw new FixtureSchemaInvalid(`metadata_truncation.${key}.${sub} must be ${type === "integer" ? "a non-negative integer" : `a ${type}`}`, ctx.locate([...where, key, sub]));
        }
      }
    }
    const children = entry["children"];
    if (Array.isArray(children)) children.forEach((c, i) => visit(c, [...at, "children", i]));
  };
  observations.forEach((o, i) => visit(o, [...path, "observations", i]));
}

/** The call's own trace: the one not rendered from a detached child. */
export function mainTrace(traces: readonly RecordedTrace[]): RecordedTrace | undefined {
  return traces.find((t) => t.metadata["detached_from_invocation_id"] === undefined);
}

/** `expected.langfuse_trace: {...}` (observability §8): the call's Langfuse trace, its observation tree unordered. */
@directive({ name: "langfuse_trace", at: "expected", home: "observability", summary: "the call's Langfuse trace" })
export class LangfuseTraceDirective {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "object" };
  configure(value: unknown, ctx: ConfigureContext): void {
    checkObservationEntries(value, ctx.self.path, ctx);
    useLangfuseCapture(ctx);
  }
  check(value: unknown, obs: Observation, ctx: CheckContext): void {
    const cap = capturedLangfuseAll(obs, ctx);
    if (cap === null) return;
    const main = mainTrace(cap.traces);
    if (!main) return ctx.fail(`the call produced no Langfuse trace (${cap.traces.length} detached)`);
    ctx.match(value, view(main, cap.fullPayloads), TRACE_ENTRY);
  }
}

/**
 * `expected.langfuse_traces: [...]` (§8.4.1, §4.4): Langfuse traces the block's calls produced,
 * unordered; an existence list (fixture 033 lists the parent trace alone beside
 * `detached_trace_count: 3`), so a count is asserted through the claims and counts beside it.
 */
@directive({ name: "langfuse_traces", at: "expected", home: "observability", summary: "every Langfuse trace (detached ones, every call at case level)" })
export class LangfuseTracesDirective {
  readonly schema: JsonSchema = { type: "array", items: { type: "object" } };
  configure(value: unknown[], ctx: ConfigureContext): void {
    value.forEach((t, i) => checkObservationEntries(t, [...ctx.self.path, i], ctx));
    useLangfuseCapture(ctx);
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const cap = capturedLangfuseAll(obs, ctx);
    if (cap !== null) ctx.match(value, cap.traces.map((t) => view(t, cap.fullPayloads)), Shapes.list("existence", TRACE_ENTRY));
  }
}

/**
 * `langfuse_client: {mode, provider?, preexisting_same_key_client?, accept_shared_provider?}`
 * (§5.5, observability §6 / §8.9): how the Langfuse observer's client is constructed — from
 * credentials (mode b, the §6.4 fake injected into the construct-from-credentials path) or
 * supplied (mode a, the fake built on the global or an isolated provider).
 */
@directive({ name: "langfuse_client", at: "case", home: "general", summary: "construct the Langfuse client (mode, provider, singleton priming, opt-out)" })
export class LangfuseClientDirective {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["mode"],
    properties: {
      mode: { enum: ["credentials", "supplied"] },
      provider: { enum: ["global", "isolated"] },
      preexisting_same_key_client: { type: "boolean" },
      accept_shared_provider: { type: "boolean" },
    },
    additionalProperties: false,
  };
  configure(value: { mode: "credentials" | "supplied"; provider?: "global" | "isolated"; preexisting_same_key_client?: boolean; accept_shared_provider?: boolean }, ctx: ConfigureContext): void {
    // §5.5: `provider` "applies only to mode: supplied"; `preexisting_same_key_client` is "meaningful
    // only with mode: credentials". The seed defines no other pairing, so the other is refused rather
    // than dropped (dropping it would run a different case than the one written).
    const undefinedPairing = value.mode === "credentials" ? (value.provider !== undefined ? "provider" : null) : value.preexisting_same_key_client !== undefined ? "preexisting_same_key_client" : null;
    if (undefinedPairing !== null) {
      const applies = undefinedPairing === "provider" ? "applies only to mode: supplied (the harness builds that client on the provider)" : "is meaningful only with mode: credentials (it primes the construct-from-credentials singleton)";
      throw new FixtureSchemaInvalid(`langfuse_client.${undefinedPairing} ${applies}; mode: ${value.mode} defines no ${undefinedPairing} (conformance-adapter §5.5) — drop the key or change the mode`, ctx.locate([...ctx.self.path, undefinedPairing]));
    }
    const state = useLangfuseCapture(ctx);
    state.client.mode = value.mode;
    state.client.provider = value.provider ?? "global";
    state.client.preexistingSameKeyClient = value.preexisting_same_key_client ?? false;
    if (value.accept_shared_provider !== undefined) state.options.acceptSharedProvider = value.accept_shared_provider;
  }
}

function globalSpans(obs: Observation, ctx: CheckContext): readonly ReadableSpan[] {
  return obs.get(GlobalSpanCapture, ctx.locate(ctx.self.path));
}

/** The spans `read` gives for each call the block covers (null: already reported). */
function readAll(obs: Observation, ctx: CheckContext, read: (obs: Observation, ctx: CheckContext) => readonly ReadableSpan[] | null): readonly ReadableSpan[] | null {
  if (obs.calls.length === 0) return read(obs, ctx);
  const out: ReadableSpan[] = [];
  for (const c of obs.calls) {
    const spans = read(c, ctx);
    if (spans === null) return null;
    out.push(...spans);
  }
  return out;
}

function leakAssertion(name: string, summary: string, read: (obs: Observation, ctx: CheckContext) => readonly ReadableSpan[] | null, test: (spans: readonly ReadableSpan[]) => string | null) {
  const cls = class {
    // Not a one-call directive (§8.4): the case-level block of a multi-invocation case reads every call.
    readonly schema: JsonSchema = { type: "boolean", const: true };
    configure(_value: unknown, ctx: ConfigureContext): void {
      useGlobalOtel(ctx);
      // §5.5 Langfuse observer composition: an assertion on Langfuse output composes the observer.
      useLangfuseCapture(ctx);
    }
    check(_value: true, obs: Observation, ctx: CheckContext): void {
      const spans = readAll(obs, ctx, read);
      if (spans === null) return;
      const why = test(spans);
      if (why !== null) ctx.fail(`${name}: ${why}`);
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  // §5.5 defines the Langfuse leak assertions for every directory (home general).
  directive({ name, at: "expected", home: "general", summary })(cls);
}

const names = (spans: readonly ReadableSpan[]): string => spans.map((s) => s.name).join(", ");
const langfuseOn = (spans: readonly ReadableSpan[]) => spans.filter(isLangfuseObservationSpan);

leakAssertion("no_langfuse_observations_on_global", "no Langfuse observation reached the global provider's exporter (§6)", globalSpans, (s) =>
  langfuseOn(s).length === 0 ? null : `${langfuseOn(s).length} reached it: ${names(langfuseOn(s))}`,
);
leakAssertion("langfuse_observations_on_global", "at least one Langfuse observation reached the global provider's exporter", globalSpans, (s) =>
  langfuseOn(s).length > 0 ? null : `none did (${s.length} spans there)`,
);
leakAssertion("no_payload_bearing_langfuse_observations_on_global", "no payload-bearing Langfuse observation reached the global provider's exporter (§6.4)", globalSpans, (s) => {
  const bad = langfuseOn(s).filter(isPayloadBearing);
  return bad.length === 0 ? null : `${bad.length} reached it: ${names(bad)}`;
});
leakAssertion("payload_bearing_langfuse_observations_on_global", "a payload-bearing Langfuse observation reached the global provider's exporter", globalSpans, (s) =>
  langfuseOn(s).some(isPayloadBearing) ? null : `none did (${langfuseOn(s).length} payload-free)`,
);
leakAssertion(
  "no_langfuse_observations_on_private",
  "no Langfuse observation reached openarmature's own private OTel provider's exporter (§6)",
  (obs, ctx) => capturedSpans(obs, ctx)?.spans ?? null,
  (s) => (langfuseOn(s).length === 0 ? null : `${langfuseOn(s).length} reached it: ${names(langfuseOn(s))}`),
);
