/**
 * Reading captured spans (conformance-adapter §5.8 *Spans, traces and metrics*): traces, the
 * forest of one trace joined by parent span id, and the record each span entry is matched against.
 */
import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { match, Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { SpanCapture, type CapturedSpans } from "./capture.ts";

export const INVOCATION_SPAN = "openarmature.invocation";

/** The call's captured spans; a reported observer error fails the assertion (never a silent drop). */
export function capturedSpans(obs: Observation, ctx: CheckContext): CapturedSpans | null {
  const cap = obs.get(SpanCapture, ctx.locate(ctx.self.path));
  if (cap.errors.length) {
    ctx.fail(`the OTel observer reported errors while the call ran: ${cap.errors.join("; ")}`);
    return null;
  }
  return cap;
}

export const statusName = (s: ReadableSpan): string =>
  s.status.code === SpanStatusCode.OK ? "OK" : s.status.code === SpanStatusCode.ERROR ? "ERROR" : "UNSET";

export const parentId = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;
export const traceId = (s: ReadableSpan): string => s.spanContext().traceId;
export const spanId = (s: ReadableSpan): string => s.spanContext().spanId;

/** The trace rooted in the call's own invocation span: the earliest parentless invocation span's. */
export function mainTraceId(spans: readonly ReadableSpan[]): string | undefined {
  const roots = spans.filter((s) => s.name === INVOCATION_SPAN && parentId(s) === undefined);
  roots.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  return roots[0] ? traceId(roots[0]) : undefined;
}

/** The call's own invocation span: the root of {@link mainTraceId}'s trace. */
export function mainInvocationSpan(spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const main = mainTraceId(spans);
  return spans.find((s) => s.name === INVOCATION_SPAN && parentId(s) === undefined && traceId(s) === main);
}

/** The trace ids of the call, the main one first, then in first-seen order. */
export function traceIds(spans: readonly ReadableSpan[]): string[] {
  const main = mainTraceId(spans);
  const ids = new Set<string>(main ? [main] : []);
  for (const s of spans) ids.add(traceId(s));
  return [...ids];
}

/** One span as an entry is matched against it (`children` recursively). */
export interface SpanRecord {
  readonly name: string;
  readonly status: string;
  readonly status_description?: string;
  readonly exception_recorded: boolean;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly attributes_absent: Readonly<Record<string, unknown>>;
  readonly attributes_present: Readonly<Record<string, unknown>>;
  readonly links: readonly { readonly target_trace_id: string }[];
  readonly link_count: number;
  readonly children: readonly SpanRecord[];
}

/**
 * The forest of `spans` joined by parent span id (roots: spans whose parent is not among them).
 * `fullPayloads`: the untruncated serializations the call's payload attributes were cut from
 * (`attribute_truncation.prefix_of_full_serialization` reads them).
 */
export function forest(spans: readonly ReadableSpan[], fullPayloads: readonly string[] = [], syntheticBase64: readonly string[] = []): SpanRecord[] {
  const ids = new Set(spans.map(spanId));
  const kids = new Map<string, ReadableSpan[]>();
  const roots: ReadableSpan[] = [];
  for (const s of spans) {
    const p = parentId(s);
    if (p !== undefined && ids.has(p)) {
      let l = kids.get(p);
      if (!l) kids.set(p, (l = []));
      l.push(s);
    } else roots.push(s);
  }
  const rec = (s: ReadableSpan): SpanRecord => {
    const attributes = { ...s.attributes } as Record<string, unknown>;
    const out: Record<string, unknown> = {
      name: s.name,
      status: statusName(s),
      exception_recorded: s.events.some((e) => e.name === "exception"),
      attributes,
      attributes_absent: attributes,
      attributes_present: attributes,
      attribute_parses_as_messages: attributes,
      attribute_parses_as_object: attributes,
      attribute_truncation: { attributes, fullPayloads },
      attribute_does_not_contain: { attributes, syntheticBase64 },
      links: s.links.map((l) => ({ target_trace_id: l.context.traceId })),
      link_count: s.links.length,
      children: (kids.get(spanId(s)) ?? []).map(rec),
    };
    if (s.status.message !== undefined && s.status.message !== "") out["status_description"] = s.status.message;
    return out as unknown as SpanRecord;
  };
  return roots.map(rec);
}

const keysOf = (v: unknown): readonly string[] => (Array.isArray(v) ? (v as string[]) : []);

/** `attributes_absent: [<key>, ...]`: none of the keys is present (matched against the attribute map). */
export const ABSENT: Shape = Shapes.keysAbsent();

/** The JSON value of a string attribute, or `undefined` when it is missing or not JSON. */
function parsedAttr(attrs: unknown, key: string): unknown {
  const v = (attrs as Record<string, unknown>)[key];
  if (typeof v !== "string") return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** `attribute_parses_as_messages` / `_as_object: {<key>: <expected>}`: the attribute is JSON equivalent to the expected structure (§5.5.1: not bytewise). */
const PARSES: Shape = Shapes.equivalent((exp, act) =>
  Object.entries(exp as Record<string, unknown>).every(([k, want]) => {
    const got = parsedAttr(act, k);
    return got !== undefined && match(want, got, Shapes.record()).ok;
  }),
);

export interface TruncationSpec {
  readonly max_bytes?: number;
  readonly marker_pattern?: string;
  readonly utf8_valid?: boolean;
  readonly prefix_of_full_serialization?: boolean;
}
const MARKER = /\u2026\[truncated, (\d+) bytes total\]$/;

/** Each sub-key of one `attribute_truncation` entry (conformance-adapter §5.11); the attribute must be present. */
export function truncationHolds(value: unknown, spec: TruncationSpec, full: readonly string[]): boolean {
  if (typeof value !== "string") return false;
  const bytes = Buffer.byteLength(value, "utf8");
  if (spec.max_bytes !== undefined && bytes > spec.max_bytes) return false;
  if (spec.marker_pattern !== undefined && !new RegExp(`(?:${spec.marker_pattern})$`, "u").test(value)) return false;
  if (spec.utf8_valid !== undefined && (Buffer.from(value, "utf8").toString("utf8") === value) !== spec.utf8_valid) return false;
  if (spec.prefix_of_full_serialization !== undefined) {
    const m = MARKER.exec(value);
    const prefix = m ? value.slice(0, m.index) : undefined;
    const holds = prefix !== undefined && full.some((f) => f.startsWith(prefix) && Buffer.byteLength(f, "utf8") === Number(m![1]));
    if (holds !== spec.prefix_of_full_serialization) return false;
  }
  return true;
}

/**
 * Every entry of an `attribute_truncation` / `metadata_truncation` mapping holds over `values`
 * (conformance-adapter §5.11 / §5.5 honor rule): the entry carries at least one sub-key, the
 * named key is present and truncated (it ends in the §5.5.5 marker), and each sub-key holds.
 */
export function truncationEntriesHold(expected: unknown, values: Readonly<Record<string, unknown>>, full: readonly string[]): boolean {
  return Object.entries(expected as Record<string, TruncationSpec>).every(([k, spec]) => {
    const v = values[k];
    return Object.keys(spec ?? {}).length > 0 && Object.hasOwn(values, k) && typeof v === "string" && MARKER.test(v) && truncationHolds(v, spec, full);
  });
}

const TRUNCATION: Shape = Shapes.equivalent((exp, act) => {
  const { attributes, fullPayloads } = act as { attributes: Record<string, unknown>; fullPayloads: readonly string[] };
  return truncationEntriesHold(exp, attributes, fullPayloads);
});

/**
 * `attribute_does_not_contain: {<key>: {forbidden_substring_kind: synthetic_base64_prefix}}` (§5.8
 * table): the attribute does not contain the first 64 characters of any base64 data the case
 * synthesized (§5.1 `base64_data_synthetic`). A case that synthesized none cannot make the
 * assertion fail, so it does not hold there; an absent attribute contains nothing.
 */
const DOES_NOT_CONTAIN: Shape = Shapes.equivalent((exp, act) => {
  const { attributes, syntheticBase64 } = act as { attributes: Record<string, unknown>; syntheticBase64: readonly string[] };
  if (syntheticBase64.length === 0) return false;
  return Object.keys(exp as Record<string, unknown>).every((k) => {
    const v = attributes[k];
    if (v === undefined) return true;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    return syntheticBase64.every((blob) => !text.includes(blob.slice(0, 64)));
  });
});

/** The keys a span entry may carry (§5.8 table); any other key is fixture_schema_invalid. */
export const SPAN_ENTRY_KEYS = [
  "name",
  "status",
  "status_description",
  "exception_recorded",
  "attributes",
  "attributes_absent",
  "attributes_present",
  "attribute_truncation",
  "attribute_parses_as_messages",
  "attribute_parses_as_object",
  "attribute_does_not_contain",
  "links",
  "link_count",
  "children",
  "absent_keys",
] as const;

/** JSON Schema of a span-entry list (`span_tree`, a trace's `span_tree`): closed entries, recursively. */
export const SPAN_ENTRIES_SCHEMA = {
  $defs: {
    span: {
      type: "object",
      additionalProperties: false,
      properties: {
        ...Object.fromEntries(SPAN_ENTRY_KEYS.map((k) => [k, true])),
        attribute_does_not_contain: {
          type: "object",
          minProperties: 1,
          additionalProperties: {
            type: "object",
            required: ["forbidden_substring_kind"],
            additionalProperties: false,
            properties: { forbidden_substring_kind: { const: "synthetic_base64_prefix" } },
          },
        },
        children: { type: "array", items: { $ref: "#/$defs/span" } },
      },
      description: `a span entry takes the §5.8 sub-keys (${SPAN_ENTRY_KEYS.join(", ")})`,
    },
  },
  type: "array",
  items: { $ref: "#/$defs/span" },
} as const;

/** A span entry (§5.8 table): attributes with span-attribute typing, children / links unordered. */
export const SPAN_ENTRY: Shape = Shapes.recursive((span) =>
  Shapes.named({
    keys: {
      attributes: Shapes.typed(Shapes.named()),
      attributes_absent: ABSENT,
      attributes_present: Shapes.equivalent((exp, act) => keysOf(exp).every((k) => Object.hasOwn(act as object, k))),
      attribute_parses_as_messages: PARSES,
      attribute_parses_as_object: PARSES,
      attribute_truncation: TRUNCATION,
      attribute_does_not_contain: DOES_NOT_CONTAIN,
      links: Shapes.list("unordered", Shapes.named()),
      children: Shapes.list("unordered", span),
    },
  }),
);

/** `span_tree` / a trace's forest: complete and unordered. */
export const SPAN_FOREST: Shape = Shapes.list("unordered", SPAN_ENTRY);
