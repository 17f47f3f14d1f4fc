/**
 * Named claims of the observability fixtures (conformance-adapter §5.9; their meaning is the
 * fixture prose that uses them), as claim tables: each reads the real spans the call exported
 * through the §6.3 capture, or the real `getInvocationMetadata()` reads its nodes made.
 */
import type { ReadableLogRecord } from "@opentelemetry/sdk-logs";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { MetadataReads, type MetadataRead } from "../../harness/observability/metadata.ts";
import { LogCapture, useOtelCapture } from "../../harness/observability/capture.ts";
import { logRecordView, type LogRecordView } from "../../harness/observability/logs.ts";
import { capturedSpans, INVOCATION_SPAN, mainTraceId, parentId, statusName, traceId } from "../../harness/observability/spans.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What a span claim reads: every span of the call, its own trace, and the detached ones. */
interface SpanView {
  readonly all: readonly ReadableSpan[];
  readonly main: readonly ReadableSpan[];
  readonly detached: ReadonlyMap<string, readonly ReadableSpan[]>;
}

function spanView(obs: Observation, ctx: CheckContext): SpanView | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  const mainId = mainTraceId(cap.spans);
  const detached = new Map<string, ReadableSpan[]>();
  for (const s of cap.spans) {
    const id = traceId(s);
    if (id === mainId) continue;
    let l = detached.get(id);
    if (!l) detached.set(id, (l = []));
    l.push(s);
  }
  return { all: cap.spans, main: cap.spans.filter((s) => traceId(s) === mainId), detached };
}

const attr = (s: ReadableSpan, k: string): unknown => s.attributes[k];
const invocationSpans = (spans: readonly ReadableSpan[]) => spans.filter((s) => s.name === INVOCATION_SPAN && parentId(s) === undefined);
const linking = (v: SpanView) => v.main.filter((s) => s.links.length > 0);
const hasException = (s: ReadableSpan) => s.events.some((e) => e.name === "exception");
const IDENTITY = ["openarmature.implementation.name", "openarmature.implementation.version", "openarmature.graph.spec_version"];

function sameCorrelation(spans: readonly ReadableSpan[]): string | null {
  const values = new Set(spans.map((s) => attr(s, "openarmature.correlation_id")));
  if (spans.length === 0) return "no span was exported";
  if (values.has(undefined)) return `${spans.filter((s) => attr(s, "openarmature.correlation_id") === undefined).map((s) => s.name).join(", ")} carry no openarmature.correlation_id`;
  return values.size === 1 ? null : `spans carry ${values.size} different correlation ids: ${show([...values])}`;
}

function oneLinkingSpan(v: SpanView, n: number): string | null {
  const l = linking(v);
  if (l.length !== 1) return `${l.length} spans of the parent trace carry links (${l.map((s) => s.name).join(", ")})`;
  return l[0]!.links.length === n ? null : `${l[0]!.name} carries ${l[0]!.links.length} links`;
}

function errorOn(spans: readonly ReadableSpan[], what: string): string | null {
  if (spans.length === 0) return `no ${what}`;
  const bad = spans.filter((s) => statusName(s) !== "ERROR");
  return bad.length === 0 ? null : `${what} status ${bad.map(statusName).join(", ")}`;
}

const instanceIndices = (v: SpanView, node: string): unknown[] => {
  const nodeSpans = new Set(v.all.filter((s) => s.name === node && attr(s, "openarmature.fan_out.item_count") !== undefined).map((s) => s.spanContext().spanId));
  return v.all.filter((s) => s.name === node && nodeSpans.has(parentId(s) ?? "")).map((s) => attr(s, "openarmature.node.fan_out_index"));
};

const spanClaims: ClaimRow<SpanView>[] = [
  { name: "correlation_id_consistency", section: "observability 001", summary: "every span of the call carries one correlation id", check: (v) => sameCorrelation(v.all) },
  {
    name: "correlation_id_uniform_across_tree",
    section: "observability 009",
    summary: "every span carries the given correlation id (a literal, or <uuid>: one UUIDv4)",
    schema: { type: "string", minLength: 1 },
    check: (v, want: string) => {
      const why = sameCorrelation(v.all);
      if (why !== null) return why;
      const got = attr(v.all[0]!, "openarmature.correlation_id");
      const ok = want === "<uuid>" ? typeof got === "string" && UUID_V4.test(got) : got === want;
      return ok ? null : `every span carries ${show(got)}`;
    },
  },
  { name: "correlation_id_consistent_across_traces", section: "observability 008", summary: "parent and detached traces share the correlation id", check: (v) => sameCorrelation(v.all) },
  {
    name: "correlation_id_is_uuidv4",
    section: "observability 009",
    summary: "the auto-generated correlation id is a canonical UUIDv4",
    check: (v) => {
      const c = v.main.map((s) => attr(s, "openarmature.correlation_id")).find((x) => x !== undefined);
      return typeof c === "string" && UUID_V4.test(c) ? null : `correlation id ${show(c)}`;
    },
  },
  {
    name: "no_edge_spans",
    section: "observability 004",
    summary: "edges produce no spans: every span is the invocation or a node's",
    at: "expected",
    check: (v) => {
      const odd = v.all.filter((s) => s.name !== INVOCATION_SPAN && s.name !== attr(s, "openarmature.node.name") && s.name !== attr(s, "openarmature.fan_out.parent_node_name") && s.name !== attr(s, "openarmature.node.branch_name"));
      return odd.length === 0 ? null : `spans that are neither the invocation nor a node: ${odd.map((s) => s.name).join(", ")}`;
    },
  },
  {
    name: "distinct_trace_ids",
    section: "observability 008",
    summary: "the parent and each detached trace have different trace ids",
    check: (v) => (v.detached.size > 0 && invocationSpans(v.all).length === v.detached.size + 1 ? null : `${v.detached.size} detached trace(s), ${invocationSpans(v.all).length} invocation spans`),
  },
  { name: "dispatch_span_link_count", section: "observability 008", summary: "the parent's dispatch span carries this many links", schema: { type: "integer", minimum: 0 }, check: (v, n: number) => oneLinkingSpan(v, n) },
  { name: "fan_out_node_span_link_count", section: "observability 008", summary: "the parent's fan-out node span carries this many links", schema: { type: "integer", minimum: 0 }, check: (v, n: number) => oneLinkingSpan(v, n) },
  {
    name: "detached_invocation_id_equals_parent",
    section: "observability 008",
    summary: "every invocation span (parent and detached) carries the same invocation id",
    check: (v) => {
      const ids = new Set(invocationSpans(v.all).map((s) => attr(s, "openarmature.invocation_id")));
      return ids.size === 1 && !ids.has(undefined) && v.detached.size > 0 ? null : `invocation ids ${show([...ids])}`;
    },
  },
  {
    name: "all_instance_trace_ids_distinct",
    section: "observability 008",
    summary: "each detached instance has its own trace, none the parent's",
    check: (v) => {
      const instances = [...v.detached.values()].filter((spans) => spans.some((s) => attr(s, "openarmature.node.fan_out_index") !== undefined));
      return instances.length === v.detached.size && instances.length > 0 ? null : `${instances.length} instance trace(s) of ${v.detached.size} detached`;
    },
  },
  {
    name: "no_instance_spans_in_parent_trace",
    section: "observability 008",
    summary: "no span from inside a detached instance is in the parent trace",
    check: (v) => {
      const leaked = v.main.filter((s) => attr(s, "openarmature.node.fan_out_index") !== undefined);
      return leaked.length === 0 ? null : `in the parent trace: ${leaked.map((s) => s.name).join(", ")}`;
    },
  },
  {
    name: "each_instance_trace_roots_in_invocation_span_sharing_parent_invocation_id",
    section: "observability 008",
    summary: "each instance trace has one root, an invocation span with the parent's invocation id",
    check: (v) => {
      const parent = attr(invocationSpans(v.main)[0]!, "openarmature.invocation_id");
      for (const [id, spans] of v.detached) {
        const roots = spans.filter((s) => parentId(s) === undefined);
        if (roots.length !== 1 || roots[0]!.name !== INVOCATION_SPAN || attr(roots[0]!, "openarmature.invocation_id") !== parent) {
          return `trace ${id} roots: ${show(roots.map((r) => [r.name, attr(r, "openarmature.invocation_id")]))}`;
        }
      }
      return v.detached.size > 0 ? null : "no detached trace";
    },
  },
  { name: "error_status_on_parent_dispatch_span", section: "observability 008", summary: "the parent's linking dispatch span is ERROR", check: (v) => errorOn(linking(v), "linking dispatch span") },
  { name: "error_status_on_parent_fan_out_node_span", section: "observability 008", summary: "the parent's linking fan-out node span is ERROR", check: (v) => errorOn(linking(v), "linking fan-out node span") },
  { name: "error_status_on_detached_invocation_span", section: "observability 008", summary: "the detached invocation span is ERROR", check: (v) => errorOn([...v.detached.values()].flatMap(invocationSpans), "detached invocation span") },
  {
    name: "error_status_on_detached_instance_invocation_span",
    section: "observability 008",
    summary: "the failing instance's detached invocation span is ERROR",
    check: (v) => {
      const failing = [...v.detached.values()].flatMap(invocationSpans).filter((s) => statusName(s) === "ERROR");
      return failing.length > 0 ? null : "no detached instance invocation span is ERROR";
    },
  },
  {
    name: "exception_event_on_both_error_spans",
    section: "observability 008",
    summary: "the ERROR dispatch span and the ERROR detached invocation span each carry an exception event",
    check: (v) => {
      const spans = [...linking(v), ...[...v.detached.values()].flatMap(invocationSpans)].filter((s) => statusName(s) === "ERROR");
      const missing = spans.filter((s) => !hasException(s));
      return spans.length >= 2 && missing.length === 0 ? null : `${spans.length} ERROR spans, without an exception event: ${missing.map((s) => s.name).join(", ")}`;
    },
  },
  {
    name: "unique_fan_out_indices_under",
    section: "observability 006",
    summary: "the instance spans under the named fan-out node carry distinct fan_out_index values",
    schema: { type: "string", minLength: 1 },
    check: (v, node: string) => {
      const idx = instanceIndices(v, node);
      return idx.length > 0 && new Set(idx).size === idx.length && !idx.includes(undefined) ? null : `instance indices under ${node}: ${show(idx)}`;
    },
  },
  {
    name: "fan_out_index_range",
    section: "observability 006",
    summary: "each fan-out node's instance spans carry exactly the fan_out_index values lo..hi (per fan-out node span, so a nested fan-out's repeats do not count)",
    schema: { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 2 },
    check: (v, [lo, hi]: [number, number]) => {
      // Instances group by their fan-out node span; a detached instance (its parent a detached
      // trace's root, §4.4) by its fan-out node's name.
      const groups = new Map<string, number[]>();
      for (const s of v.all.filter((x) => x.name === attr(x, "openarmature.fan_out.parent_node_name"))) {
        const parent = v.all.find((p) => p.spanContext().spanId === parentId(s));
        const k = parent && attr(parent, "openarmature.fan_out.item_count") !== undefined ? `span ${parent.spanContext().spanId}` : `detached ${s.name}`;
        let g = groups.get(k);
        if (!g) groups.set(k, (g = []));
        g.push(attr(s, "openarmature.node.fan_out_index") as number);
      }
      const want = show(Array.from({ length: hi - lo + 1 }, (_, i) => lo + i));
      const bad = [...groups.values()].map((g) => g.sort((a, b) => a - b)).filter((g) => show(g) !== want);
      return groups.size > 0 && bad.length === 0 ? null : groups.size === 0 ? "no fan-out instance span" : `instance indices ${bad.map(show).join(", ")} under a fan-out node`;
    },
  },
  {
    name: "implementation_name_non_empty",
    section: "observability 058",
    summary: "the invocation span carries a non-empty openarmature.implementation.name",
    check: (v) => nonEmptyOnInvocations(v, "openarmature.implementation.name"),
  },
  {
    name: "implementation_version_non_empty",
    section: "observability 058",
    summary: "the invocation span carries a non-empty openarmature.implementation.version",
    check: (v) => nonEmptyOnInvocations(v, "openarmature.implementation.version"),
  },
  {
    name: "implementation_name_matches_canonical_value",
    section: "observability 058",
    summary: "openarmature.implementation.name is openarmature-typescript",
    check: (v) => {
      const names = invocationSpans(v.all).map((s) => attr(s, "openarmature.implementation.name"));
      return names.length > 0 && names.every((n) => n === "openarmature-typescript") ? null : `names ${show(names)}`;
    },
  },
  { name: "attributes_on_invocation_span_only", section: "observability 058", summary: "the identity attributes are on invocation spans", check: (v) => identityOn(invocationSpans(v.all)) },
  { name: "attributes_absent_on_inner_spans", section: "observability 058", summary: "no non-invocation span carries the identity attributes", check: (v) => identityAbsent(v.all) },
  { name: "always_emit_invariant_applies_to_every_invocation_span", section: "observability 058", summary: "every invocation span carries the identity attributes", check: (v) => identityOn(invocationSpans(v.all)) },
  { name: "attribution_attrs_on_parent_invocation_span", section: "observability 058", summary: "the parent invocation span carries the identity attributes", check: (v) => identityOn(invocationSpans(v.main)) },
  {
    name: "attribution_attrs_on_detached_child_invocation_span",
    section: "observability 058",
    summary: "each detached invocation span carries the identity attributes",
    check: (v) => (v.detached.size === 0 ? "no detached trace" : identityOn([...v.detached.values()].flatMap(invocationSpans))),
  },
  { name: "attribution_attrs_absent_on_inner_spans_both_traces", section: "observability 058", summary: "no inner span of either trace carries the identity attributes", check: (v) => identityAbsent(v.all) },
];

function nonEmptyOnInvocations(v: SpanView, key: string): string | null {
  const values = invocationSpans(v.all).map((s) => attr(s, key));
  return values.length > 0 && values.every((x) => typeof x === "string" && x.length > 0) ? null : `${key} values ${show(values)}`;
}

function identityOn(spans: readonly ReadableSpan[]): string | null {
  if (spans.length === 0) return "no invocation span";
  for (const s of spans) for (const k of IDENTITY) if (typeof attr(s, k) !== "string" || attr(s, k) === "") return `${s.name} lacks ${k}`;
  return null;
}

function identityAbsent(spans: readonly ReadableSpan[]): string | null {
  for (const s of spans) {
    if (s.name === INVOCATION_SPAN) continue;
    for (const k of IDENTITY) if (attr(s, k) !== undefined) return `${s.name} carries ${k}`;
  }
  return null;
}

registerClaims(HOME, spanView, spanClaims, useOtelCapture);

/**
 * Dispatch spans (observability §4.3, §6 synthesis, fixture 038): a per-branch dispatch span
 * (carries `parallel_branches.parent_node_name`) or a fan-out instance span (carries
 * `fan_out.parent_node_name`) — the span between a composite node's span and its inner spans.
 */
const BRANCH_PARENT = "openarmature.parallel_branches.parent_node_name";
const FAN_OUT_PARENT = "openarmature.fan_out.parent_node_name";
const isDispatch = (s: ReadableSpan): boolean => attr(s, BRANCH_PARENT) !== undefined || attr(s, FAN_OUT_PARENT) !== undefined;
/** The branch / instance a span runs in: its branch name, else its fan-out index. */
const lineageLabel = (s: ReadableSpan): unknown => attr(s, "openarmature.node.branch_name") ?? attr(s, "openarmature.node.fan_out_index");
const endNs = (s: ReadableSpan): number => s.endTime[0] * 1e9 + s.endTime[1];

function nearestDispatch(s: ReadableSpan, byId: ReadonlyMap<string, ReadableSpan>): ReadableSpan | undefined {
  for (let p = byId.get(parentId(s) ?? ""); p; p = byId.get(parentId(p) ?? "")) if (isDispatch(p)) return p;
  return undefined;
}

const dispatchClaims: ClaimRow<SpanView>[] = [
  {
    name: "same_named_inner_spans_disambiguated_by_dispatch_parent",
    section: "observability 038",
    summary: "same-named spans in different branches / instances sit under distinct dispatch spans of their own branch / instance",
    check: (v) => {
      const byId = new Map(v.all.map((s) => [s.spanContext().spanId, s]));
      const groups = new Map<string, ReadableSpan[]>();
      for (const s of v.all) {
        if (isDispatch(s) || s.name === INVOCATION_SPAN || lineageLabel(s) === undefined) continue;
        let g = groups.get(s.name);
        if (!g) groups.set(s.name, (g = []));
        g.push(s);
      }
      let compared = 0;
      for (const [name, spans] of groups) {
        if (new Set(spans.map(lineageLabel)).size < 2) continue;
        compared++;
        const parentOf = new Map<unknown, string>();
        for (const s of spans) {
          const d = nearestDispatch(s, byId);
          if (!d) return `a '${name}' span (${show(lineageLabel(s))}) has no dispatch span above it`;
          if (lineageLabel(d) !== lineageLabel(s)) return `the '${name}' span of ${show(lineageLabel(s))} sits under the dispatch span of ${show(lineageLabel(d))}`;
          parentOf.set(lineageLabel(s), d.spanContext().spanId);
        }
        if (new Set(parentOf.values()).size !== parentOf.size) return `'${name}' spans of different branches / instances share a dispatch span`;
      }
      return compared > 0 ? null : "no same-named spans run in different branches or instances";
    },
  },
  {
    name: "dispatch_spans_close_before_node_span",
    section: "observability 038",
    summary: "every dispatch span ends no later than its composite node's span (children before parents)",
    check: (v) => {
      const byId = new Map(v.all.map((s) => [s.spanContext().spanId, s]));
      const dispatch = v.all.filter((s) => isDispatch(s) && byId.has(parentId(s) ?? ""));
      if (dispatch.length === 0) return "no dispatch span under a node span";
      for (const d of dispatch) {
        const node = byId.get(parentId(d)!)!;
        // Export order is end order (the capture's processor exports each span as it ends).
        if (endNs(d) > endNs(node) || v.all.indexOf(d) > v.all.indexOf(node)) return `dispatch span ${d.name} closed after its node span ${node.name}`;
      }
      return null;
    },
  },
  {
    name: "dispatch_spans_close_in_declaration_order",
    section: "observability 038",
    summary: "each parallel-branches node's dispatch spans close in its declared branch order",
    schema: { type: "array", items: { type: "string" }, minItems: 1 },
    check: (v, want: string[]) => {
      const nodes = v.all.filter((s) => attr(s, "openarmature.parallel_branches.branch_count") !== undefined);
      if (nodes.length === 0) return "no parallel-branches node span";
      for (const n of nodes) {
        const id = n.spanContext().spanId;
        const closed = v.all.filter((s) => parentId(s) === id && attr(s, BRANCH_PARENT) !== undefined).map((s) => s.name);
        if (show(closed) !== show(want)) return `the dispatch spans under ${n.name} closed in the order ${show(closed)}`;
      }
      return null;
    },
  },
];
registerClaims(HOME, spanView, dispatchClaims, useOtelCapture);

/** What a metadata claim reads: the `getInvocationMetadata()` reads the call's nodes made, in order. */
function reads(obs: Observation): readonly MetadataRead[] {
  return obs.tryGet(MetadataReads) ?? [];
}

const metadataClaims: ClaimRow<readonly MetadataRead[]>[] = [
  {
    name: "read_returns_caller_baseline",
    section: "observability 043",
    summary: "the read includes every entry the caller passed to invoke()",
    check: (r) => (r.length > 0 && r.every((x) => Object.keys(x.snapshot).length > 0) ? null : `reads ${show(r)}`),
  },
  {
    name: "read_returns_in_node_write",
    section: "observability 043",
    summary: "a read after the node's own write sees it",
    check: (r) => (r.some((x) => Object.keys(x.snapshot).length > 1) ? null : `reads ${show(r)}`),
  },
  {
    name: "read_returns_immutable_mapping",
    section: "observability 043",
    summary: "the snapshot a read returns cannot be modified",
    check: (r) => {
      if (r.length === 0) return "no read was made";
      const mutable = r.filter((x) => {
        if (!Object.isFrozen(x.snapshot)) return true;
        try {
          (x.snapshot as Record<string, unknown>)["__probe"] = 1;
        } catch {
          return false;
        }
        return Object.hasOwn(x.snapshot, "__probe");
      });
      return mutable.length === 0 ? null : `mutable snapshots from ${mutable.map((x) => x.node).join(", ")}`;
    },
  },
];

registerClaims(HOME, (obs) => reads(obs), metadataClaims);

/** 135: a point-in-time read after / before the node's own write, in document order. */
const orderClaims: ClaimRow<readonly MetadataRead[]>[] = [
  {
    name: "capture_after_augment_sees_write",
    section: "observability 135",
    summary: "a capture written after augment_metadata sees the write",
    check: (r) => (r.length > 0 && r.every((x) => Object.hasOwn(x.snapshot, "marker")) ? null : `reads ${show(r)}`),
  },
  {
    name: "capture_before_augment_misses_write",
    section: "observability 135",
    summary: "a capture written before augment_metadata does not see the write",
    check: (r) => (r.length > 0 && r.every((x) => !Object.hasOwn(x.snapshot, "marker")) ? null : `reads ${show(r)}`),
  },
];
registerClaims(HOME, (obs) => reads(obs), orderClaims);

/** What a log claim reads: the call's log records and its spans. */
interface LogView {
  readonly logs: readonly LogRecordView[];
  readonly records: readonly ReadableLogRecord[];
  readonly spans: SpanView;
}

function logView(obs: Observation, ctx: CheckContext): LogView | null {
  const spans = spanView(obs, ctx);
  if (spans === null) return null;
  const records = obs.get(LogCapture, ctx.locate(ctx.self.path));
  return { logs: records.map(logRecordView), records, spans };
}

const hr = (t: readonly [number, number]) => t[0] * 1e9 + t[1];

const logClaims: ClaimRow<LogView>[] = [
  {
    name: "all_logs_same_trace_id",
    section: "observability 010",
    summary: "every log record carries the invocation's trace id",
    check: (v) => {
      const ids = new Set(v.logs.map((l) => l.trace_id));
      const main = v.spans.main[0] ? traceId(v.spans.main[0]) : undefined;
      return v.logs.length > 0 && ids.size === 1 && ids.has(main) ? null : `trace ids ${show([...ids])}, the invocation's ${show(main)}`;
    },
  },
  {
    name: "log_span_ids_match_active_span_at_emission",
    section: "observability 010",
    summary: "each record's span id is a span that was open when the record was emitted",
    check: (v) => {
      for (const r of v.records) {
        const s = v.spans.all.find((x) => x.spanContext().spanId === r.spanContext?.spanId);
        if (!s) return `record ${show(r.body)} names span ${show(r.spanContext?.spanId)}, not an exported span`;
        const t = hr(r.hrTime);
        if (t < hr(s.startTime) || t > hr(s.endTime)) return `record ${show(r.body)} was emitted outside span ${s.name}`;
      }
      return v.records.length > 0 ? null : "no log record";
    },
  },
  {
    name: "all_logs_carry_correlation_id",
    section: "observability 010",
    summary: "every log record carries this correlation id",
    schema: { type: "string", minLength: 1 },
    check: (v, want: string) => {
      const bad = v.logs.filter((l) => l.attributes["openarmature.correlation_id"] !== want);
      return v.logs.length > 0 && bad.length === 0 ? null : `records ${show(bad.map((l) => [l.body, l.attributes["openarmature.correlation_id"]]))}`;
    },
  },
  {
    name: "log_trace_ids_differ_when_detached",
    section: "observability 010",
    summary: "records inside a detached subgraph carry the detached trace id, others the parent's",
    check: (v) => {
      const ids = new Set(v.logs.map((l) => l.trace_id));
      const detached = [...v.spans.detached.keys()];
      return ids.size >= 2 && detached.some((d) => ids.has(d)) ? null : `trace ids ${show([...ids])}`;
    },
  },
];
registerClaims(HOME, logView, logClaims, useOtelCapture);
