/**
 * Named claims about caller metadata and ids on the spans (observability §3.4, §5.1, §5.6;
 * fixtures 026, 029, 030, 034, 035), by their plain meaning over the OTel spans of every composite
 * kind: the caller's baseline on every span, each fan-out instance's / branch's own augmentation on
 * its spans and not on a sibling's, a serial augmentation updating the spans open when it was made.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { CallerSuppliedIds } from "../../harness/graph/caller-ids.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { CallerBaseline, MetadataWrites, type MetadataWrite } from "../../harness/observability/metadata.ts";
import { capturedSpans, INVOCATION_SPAN, mainInvocationSpan, parentId, spanId } from "../../harness/observability/spans.ts";
import { otelReader } from "../../harness/observability/lineage.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
const USER = "openarmature.user.";
const FAN_INDEX = "openarmature.node.fan_out_index";
const BRANCH = "openarmature.node.branch_name";

interface View {
  readonly spans: readonly ReadableSpan[];
  readonly baseline: Readonly<Record<string, unknown>>;
  readonly writes: readonly MetadataWrite[];
  readonly callerInvocationId: string | undefined;
}

function view(obs: Observation, ctx: CheckContext): View | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  return {
    spans: cap.spans,
    baseline: obs.tryGet(CallerBaseline) ?? {},
    writes: obs.tryGet(MetadataWrites) ?? [],
    callerInvocationId: obs.tryGet(CallerSuppliedIds)?.invocationId,
  };
}

const carries = (s: ReadableSpan, k: string, v: unknown): boolean => show(s.attributes[USER + k]) === show(v);

function baselineEverywhere(v: View): string | null {
  const keys = Object.keys(v.baseline);
  if (keys.length === 0) return "the call passed no caller metadata";
  if (v.spans.length === 0) return "no span was exported";
  for (const s of v.spans) for (const k of keys) if (!carries(s, k, v.baseline[k])) return `${s.name} carries ${USER}${k} = ${show(s.attributes[USER + k])}, not ${show(v.baseline[k])}`;
  return null;
}

/** The spans of each instance / branch (by `attr`), with the writes made in it; each carries its own and no sibling's. */
function isolation(v: View, attr: string, lineage: (w: MetadataWrite) => unknown): string | null {
  const groups = new Map<string, ReadableSpan[]>();
  for (const s of v.spans) {
    const label = s.attributes[attr];
    if (label === undefined) continue;
    const k = show(label);
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const writes = new Map<string, MetadataWrite[]>();
  for (const w of v.writes) {
    const label = lineage(w);
    if (label === undefined) continue;
    writes.set(show(label), [...(writes.get(show(label)) ?? []), w]);
  }
  if (groups.size < 2 || writes.size === 0) return `${groups.size} instance(s) / branch(es) with spans, ${writes.size} with writes: nothing to isolate`;
  for (const [label, spans] of groups) {
    const mine = writes.get(label) ?? [];
    const dispatch = spans.filter((s) => s.attributes["openarmature.fan_out.parent_node_name"] !== undefined || s.attributes["openarmature.parallel_branches.parent_node_name"] !== undefined);
    for (const w of mine) for (const [k, val] of Object.entries(w.entries)) for (const d of dispatch) if (!carries(d, k, val)) return `the dispatch span of ${label} does not carry its own ${USER}${k} = ${show(val)}`;
    for (const [other, theirs] of writes) {
      if (other === label) continue;
      for (const w of theirs) {
        for (const [k, val] of Object.entries(w.entries)) {
          if (mine.some((m) => show(m.entries[k]) === show(val))) continue;
          const leak = spans.find((s) => carries(s, k, val));
          if (leak) return `${leak.name} of ${label} carries ${USER}${k} = ${show(val)} written in ${other}`;
        }
      }
    }
  }
  return null;
}

const innermost = <T>(chain: readonly (T | null)[]): T | undefined => {
  for (let i = chain.length - 1; i >= 0; i--) if (chain[i] !== null) return chain[i] as T;
  return undefined;
};

const rows: ClaimRow<View>[] = [
  { name: "caller_metadata_cross_cutting", section: "observability 026", summary: "every span carries the whole caller metadata as openarmature.user.*", check: baselineEverywhere },
  { name: "baseline_caller_metadata_universal", section: "observability 029", summary: "the caller's baseline metadata reaches every span, in every instance / branch", check: baselineEverywhere },
  {
    name: "fan_out_per_instance_metadata_isolation",
    section: "observability 029",
    summary: "each fan-out instance's spans carry its own augmentation and never a sibling instance's",
    check: (v) => isolation(v, FAN_INDEX, (w) => innermost(w.fanOutIndexChain)),
  },
  {
    name: "parallel_branches_per_branch_metadata_isolation",
    section: "observability 030",
    summary: "each branch's spans carry its own augmentation and never a sibling branch's",
    check: (v) => isolation(v, BRANCH, (w) => innermost(w.branchNameChain)),
  },
  {
    name: "per_branch_oa_emitted_branch_name_isolation",
    section: "observability 030",
    summary: "every inner-node span below a branch's dispatch span carries that branch's openarmature.node.branch_name",
    check: (v) => {
      const byId = new Map(v.spans.map((s) => [spanId(s), s]));
      const dispatch = v.spans.filter((s) => s.attributes["openarmature.parallel_branches.parent_node_name"] !== undefined);
      if (dispatch.length === 0) return "no branch dispatch span";
      // observability §5.7: branch_name is on the dispatch span and "on every inner-node span
      // beneath" it — node spans, not the provider-call spans (LLM, embedding, ...) under them.
      const reader = otelReader(v.spans);
      for (const s of v.spans) {
        if (reader.node(s) === undefined) continue;
        for (let p = byId.get(parentId(s) ?? ""); p; p = byId.get(parentId(p) ?? "")) {
          if (!dispatch.includes(p)) continue;
          if (s.attributes[BRANCH] !== p.attributes[BRANCH]) return `${s.name} under branch ${show(p.attributes[BRANCH])} carries branch_name ${show(s.attributes[BRANCH])}`;
          break;
        }
      }
      return null;
    },
  },
  {
    name: "open_span_update_reaches_invocation_and_node_spans",
    section: "observability 034",
    summary: "metadata a serial node adds mid-invocation is set on the invocation span and on that node's span",
    check: (v) => {
      const serial = v.writes.filter((w) => !w.fanOutIndexChain.some((x) => x !== null) && !w.branchNameChain.some((x) => x !== null));
      if (serial.length === 0) return "no serial node augmented the metadata";
      const root = mainInvocationSpan(v.spans);
      if (!root) return "no invocation span";
      for (const w of serial) {
        const node = v.spans.find((s) => s.attributes["openarmature.node.name"] === w.node && s.attributes["openarmature.node.step"] === w.step);
        for (const [k, val] of Object.entries(w.entries)) {
          if (!carries(root, k, val)) return `the invocation span does not carry ${USER}${k} = ${show(val)}`;
          if (!node || !carries(node, k, val)) return `${w.node}'s span does not carry ${USER}${k} = ${show(val)}`;
        }
      }
      return null;
    },
  },
  {
    name: "caller_invocation_id_verbatim_on_attribute",
    section: "observability 035",
    summary: "the invocation span's openarmature.invocation_id is the id the caller supplied, verbatim",
    check: (v) => {
      if (v.callerInvocationId === undefined) return "the call supplied no invocation id";
      const ids = v.spans.filter((s) => s.name === INVOCATION_SPAN).map((s) => s.attributes["openarmature.invocation_id"]);
      return ids.length > 0 && ids.every((x) => x === v.callerInvocationId) ? null : `invocation spans carry ${show(ids)}, the caller supplied ${show(v.callerInvocationId)}`;
    },
  },
];
registerClaims(HOME, view, rows, useOtelCapture);

/** `invocation_id: <id>` under `expected:` (035): the call's invocation span carries this openarmature.invocation_id. */
registerClaims(
  HOME,
  view,
  [
    {
      name: "invocation_id",
      section: "observability 035",
      summary: "the invocation span's openarmature.invocation_id equals this value",
      at: "expected",
      schema: { type: "string", minLength: 1 },
      check: (v, want: string) => {
        const root = mainInvocationSpan(v.spans);
        return root?.attributes["openarmature.invocation_id"] === want ? null : `the invocation span carries ${show(root?.attributes["openarmature.invocation_id"])}`;
      },
    },
  ],
  useOtelCapture,
);
