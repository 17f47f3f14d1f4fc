/**
 * Named claims over retry attempt spans and over several runs of one case (observability 007, 009),
 * by the plain meaning of their fixtures' prose. A claim about several invocations reads each call
 * of a multi-invocation case (`invocations:`); in a single-call block it reads that call.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { capturedSpans, INVOCATION_SPAN, mainInvocationSpan, parentId, spanId, statusName } from "../../harness/observability/spans.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ATTEMPT = "openarmature.node.attempt_index";
const CORRELATION = "openarmature.correlation_id";

/** The attempts of one node: same-named sibling spans under one parent, told apart by attempt index. */
function attemptGroups(spans: readonly ReadableSpan[]): ReadableSpan[][] {
  const groups = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    if (s.name === INVOCATION_SPAN || s.attributes[ATTEMPT] === undefined) continue;
    const k = `${parentId(s) ?? ""}/${s.name}/${show(s.attributes["openarmature.node.step"])}`;
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  return [...groups.values()].filter((g) => g.length > 1 || (g[0]!.attributes[ATTEMPT] as number) > 0);
}

/** The retried node's attempt spans directly under the call's invocation span. */
function underInvocation(spans: readonly ReadableSpan[]): ReadableSpan[] {
  const root = mainInvocationSpan(spans);
  if (!root) return [];
  const groups = attemptGroups(spans.filter((s) => parentId(s) === spanId(root)));
  return groups.sort((a, b) => b.length - a.length)[0] ?? [];
}

function spansOf(obs: Observation, ctx: CheckContext): readonly ReadableSpan[] | null {
  return capturedSpans(obs, ctx)?.spans ?? null;
}

const attemptRows: ClaimRow<readonly ReadableSpan[]>[] = [
  {
    name: "sibling_attempt_count_under_invocation",
    section: "observability 007",
    summary: "the retried node's attempts are this many sibling spans directly under the invocation span",
    schema: { type: "integer", minimum: 1 },
    check: (spans, n: number) => {
      const g = underInvocation(spans);
      return g.length === n ? null : `${g.length} sibling attempt span(s) under the invocation span (${show(g.map((s) => s.attributes[ATTEMPT]))})`;
    },
  },
  {
    name: "attempt_indices",
    section: "observability 007",
    summary: "the retried node's attempt spans carry exactly these attempt indices",
    schema: { type: "array", items: { type: "integer", minimum: 0 }, minItems: 1 },
    check: (spans, want: number[]) => {
      const got = attemptGroups(spans).flatMap((g) => g.map((s) => s.attributes[ATTEMPT] as number)).sort((a, b) => a - b);
      return show(got) === show([...want].sort((a, b) => a - b)) ? null : `attempt indices ${show(got)}`;
    },
  },
  {
    name: "all_attempt_spans_error",
    section: "observability 007",
    summary: "every attempt span of the retried node is ERROR",
    check: (spans) => {
      const all = attemptGroups(spans).flat();
      if (all.length === 0) return "no retried node";
      const ok = all.filter((s) => statusName(s) !== "ERROR");
      return ok.length === 0 ? null : `attempts ${show(ok.map((s) => s.attributes[ATTEMPT]))} are ${show(ok.map(statusName))}`;
    },
  },
];
registerClaims(HOME, spansOf, attemptRows, useOtelCapture);

/** Each call's spans (every call of a multi-invocation case, else the one). */
function runs(obs: Observation, ctx: CheckContext): Array<readonly ReadableSpan[]> | null {
  const out: Array<readonly ReadableSpan[]> = [];
  for (const c of obs.calls.length > 0 ? obs.calls : [obs]) {
    const s = spansOf(c, ctx);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

const correlationOf = (spans: readonly ReadableSpan[]): Set<unknown> => new Set(spans.map((s) => s.attributes[CORRELATION]));

const runRows: ClaimRow<Array<readonly ReadableSpan[]>>[] = [
  {
    name: "invocation_count",
    section: "observability 009",
    summary: "the case made this many invocations, each with its own invocation span",
    at: "expected",
    schema: { type: "integer", minimum: 1 },
    check: (rs, n: number) => {
      const ids = new Set(rs.flatMap((spans) => spans.filter((s) => s.name === INVOCATION_SPAN && parentId(s) === undefined).map((s) => s.attributes["openarmature.invocation_id"])));
      return rs.length === n && ids.size === n ? null : `${rs.length} call(s), ${ids.size} distinct invocation id(s)`;
    },
  },
  {
    name: "each_invocation_correlation_id_uniform",
    section: "observability 009",
    summary: "within each invocation every span carries one correlation id",
    check: (rs) => {
      for (const [i, spans] of rs.entries()) {
        const ids = correlationOf(spans);
        if (spans.length === 0 || ids.size !== 1 || ids.has(undefined)) return `invocation ${i} spans carry correlation ids ${show([...ids])}`;
      }
      return null;
    },
  },
  {
    name: "correlation_ids_differ_across_invocations",
    section: "observability 009",
    summary: "no two invocations share a correlation id",
    check: (rs) => {
      if (rs.length < 2) return "fewer than two invocations";
      const ids = rs.map((spans) => [...correlationOf(spans)][0]);
      return new Set(ids).size === ids.length ? null : `correlation ids ${show(ids)}`;
    },
  },
  {
    name: "all_correlation_ids_uuidv4",
    section: "observability 009",
    summary: "every correlation id on every invocation's spans is a canonical UUIDv4",
    check: (rs) => {
      const bad = rs.flatMap((spans) => [...correlationOf(spans)]).filter((c) => typeof c !== "string" || !UUID_V4.test(c));
      return rs.length > 0 && bad.length === 0 ? null : `correlation ids ${show(bad)}`;
    },
  },
];
registerClaims(HOME, runs, runRows, useOtelCapture);

/** Each call's executed path: its started node executions, in step order (namespace, step, attempt, lineage). */
function paths(obs: Observation, ctx: CheckContext): Array<{ spans: readonly ReadableSpan[]; path: string[] }> | null {
  const out: Array<{ spans: readonly ReadableSpan[]; path: string[] }> = [];
  for (const c of obs.calls.length > 0 ? obs.calls : [obs]) {
    const cap = capturedSpans(c, ctx);
    if (cap === null) return null;
    const started = cap.nodeEvents.filter((e) => e.phase === "started");
    const path = started.map((e) => show([e.namespace, e.step, e.attemptIndex, e.fanOutIndexChain, e.branchNameChain])).sort();
    out.push({ spans: cap.spans, path });
  }
  return out;
}

const acrossRuns: ClaimRow<Array<{ spans: readonly ReadableSpan[]; path: string[] }>>[] = [
  {
    name: "same_execution_path",
    section: "observability 011",
    summary: "every run of the case executed the same nodes, at the same steps, attempts and lineage",
    check: (rs) => {
      if (rs.length < 2) return `${rs.length} run(s): nothing to compare`;
      const first = show(rs[0]!.path);
      const other = rs.findIndex((r) => show(r.path) !== first);
      return other < 0 ? null : `run ${other} executed ${show(rs[other]!.path)}, run 0 ${first}`;
    },
  },
  {
    name: "span_count_equal_across_runs",
    section: "observability 011",
    summary: "every run of the case exported the same number of spans",
    check: (rs) => {
      if (rs.length < 2) return `${rs.length} run(s): nothing to compare`;
      const counts = rs.map((r) => r.spans.length);
      return new Set(counts).size === 1 ? null : `span counts ${show(counts)}`;
    },
  },
];
registerClaims(HOME, paths, acrossRuns, useOtelCapture);
