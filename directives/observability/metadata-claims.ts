/**
 * Named claims of the invocation-metadata scoping fixtures (observability 044, 045; §3.4), by the
 * plain meaning their prose gives, over every composite kind: each reads the real
 * `setInvocationMetadata` writes and `getInvocationMetadata` reads the call's nodes made, with the
 * §6 site (namespace, step, attempt, fan-out / branch lineage) of each.
 */
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { CallerBaseline, MetadataReads, MetadataWrites, type MetadataRead, type MetadataSite, type MetadataWrite } from "../../harness/observability/metadata.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";

interface MetadataView {
  readonly reads: readonly MetadataRead[];
  readonly writes: readonly MetadataWrite[];
  readonly baseline: Readonly<Record<string, unknown>>;
}

function view(obs: Observation): MetadataView {
  return { reads: obs.tryGet(MetadataReads) ?? [], writes: obs.tryGet(MetadataWrites) ?? [], baseline: obs.tryGet(CallerBaseline) ?? {} };
}

const sameNode = (a: Partial<MetadataSite>, b: MetadataSite): boolean =>
  a.node === b.node && show(a.namespace) === show(b.namespace) && show(a.fanOutIndexChain) === show(b.fanOutIndexChain) && show(a.branchNameChain) === show(b.branchNameChain);
const sees = (snapshot: Readonly<Record<string, unknown>>, entries: Readonly<Record<string, unknown>>): string[] =>
  Object.entries(entries).filter(([k, v]) => Object.hasOwn(snapshot, k) && show(snapshot[k]) === show(v)).map(([k]) => k);
/** Inside a fan-out instance or a parallel branch somewhere on its path. */
const forked = (s: Partial<MetadataSite>): boolean => (s.fanOutIndexChain ?? []).some((x) => x !== null) || (s.branchNameChain ?? []).some((x) => x !== null);
/** The instance / branch a site runs in, at the first fork on its path (null when none). */
function forkOf(s: Partial<MetadataSite>): string | null {
  const fan = s.fanOutIndexChain ?? [];
  const br = s.branchNameChain ?? [];
  for (let d = 0; d < Math.max(fan.length, br.length); d++) if (fan[d] != null || br[d] != null) return show([d, fan[d] ?? null, br[d] ?? null]);
  return null;
}

const claims: ClaimRow<MetadataView>[] = [
  {
    name: "prior_failed_attempt_writes_discarded",
    section: "observability 045",
    summary: "a retried attempt's read does not see what the node's earlier (failed) attempts wrote",
    check: (v) => {
      let compared = 0;
      for (const r of v.reads) {
        const earlier = v.writes.filter((w) => sameNode(r, w) && w.attemptIndex < (r.attemptIndex ?? 0));
        if (earlier.length === 0) continue;
        compared++;
        for (const w of earlier) {
          const leaked = sees(r.snapshot, w.entries).filter((k) => show(v.baseline[k]) !== show(w.entries[k]));
          if (leaked.length) return `attempt ${r.attemptIndex} of ${r.node} reads ${leaked.join(", ")} written by attempt ${w.attemptIndex}`;
        }
      }
      return compared > 0 ? null : "no retried attempt read metadata after an earlier attempt wrote it";
    },
  },
  {
    name: "successful_attempt_writes_visible_downstream",
    section: "observability 045",
    summary: "what a retried node's last attempt wrote is visible to the reads of the nodes after it",
    check: (v) => {
      const retried = v.writes.filter((w) => w.attemptIndex > 0);
      if (retried.length === 0) return "no retried attempt wrote metadata";
      for (const w of retried) {
        const last = Math.max(...v.writes.filter((x) => sameNode(x, w)).map((x) => x.attemptIndex));
        if (w.attemptIndex !== last) continue;
        const downstream = v.reads.filter((r) => (r.step ?? -1) > w.step && !sameNode(r, w) && (r.namespace?.length ?? 0) <= w.namespace.length);
        if (downstream.length === 0) return `no node after ${w.node} read metadata`;
        for (const r of downstream) {
          const missing = Object.keys(w.entries).filter((k) => !sees(r.snapshot, w.entries).includes(k));
          if (missing.length) return `${r.node} (after ${w.node}) reads ${show(r.snapshot)}, without ${missing.join(", ")} from attempt ${w.attemptIndex}`;
        }
      }
      return null;
    },
  },
  {
    name: "caller_baseline_stable_across_attempts",
    section: "observability 045",
    summary: "every read, at every attempt, carries the caller's metadata unchanged",
    check: (v) => {
      if (Object.keys(v.baseline).length === 0) return "the call passed no caller metadata";
      const attempts = new Set(v.reads.map((r) => r.attemptIndex ?? 0));
      if (v.reads.length === 0) return "no read was made";
      for (const r of v.reads) {
        const missing = Object.keys(v.baseline).filter((k) => show(r.snapshot[k]) !== show(v.baseline[k]) && !v.writes.some((w) => Object.hasOwn(w.entries, k)));
        if (missing.length) return `${r.node} attempt ${r.attemptIndex} reads ${show(r.snapshot)}: baseline ${missing.join(", ")} changed`;
      }
      return attempts.size > 1 || v.reads.some((r) => (r.attemptIndex ?? 0) > 0) ? null : "every read was made at attempt 0";
    },
  },
  {
    name: "per_instance_reads_isolated_from_siblings",
    section: "observability 044",
    summary: "a read inside a fan-out instance or branch never sees what a sibling instance / branch wrote",
    check: (v) => {
      const inside = v.reads.filter(forked);
      if (inside.length === 0) return "no read was made inside a fan-out instance or branch";
      for (const r of inside) {
        for (const w of v.writes.filter((x) => forked(x) && forkOf(x) !== forkOf(r))) {
          const leaked = sees(r.snapshot, w.entries).filter((k) => show(v.baseline[k]) !== show(w.entries[k]) && !v.writes.some((x) => forkOf(x) === forkOf(r) && show(x.entries[k]) === show(w.entries[k])));
          if (leaked.length) return `${r.node} in ${forkOf(r)} reads ${leaked.join(", ")} written in ${forkOf(w)}`;
        }
      }
      return null;
    },
  },
  {
    name: "outermost_read_sees_pre_fan_out_baseline_only",
    section: "observability 044",
    summary: "a read in the outermost serial context after a fan-out / branches join sees none of the instances' writes",
    check: (v) => joinLeak(v, "outermost"),
  },
  {
    name: "no_global_aggregator_layered_across_join",
    section: "observability 044",
    summary: "no read after a join sees writes layered in from the instances / branches that joined",
    check: (v) => joinLeak(v, "any"),
  },
];

/** Reads after a fork whose snapshot carries a write made inside the fork (outermost: only top-level reads). */
function joinLeak(v: MetadataView, which: "outermost" | "any"): string | null {
  const inner = v.writes.filter(forked);
  if (inner.length === 0) return "no write was made inside a fan-out instance or branch";
  const after = v.reads.filter((r) => !forked(r) && (r.step ?? -1) > Math.min(...inner.map((w) => w.step)) && (which === "any" || r.namespace?.length === 1));
  if (after.length === 0) return "no read was made after the join";
  for (const r of after) {
    // A value the read's own serial context wrote before it is its own, not layered in from the fork.
    const own = v.writes.filter((w) => !forked(w) && w.step <= (r.step ?? -1));
    for (const w of inner) {
      const leaked = sees(r.snapshot, w.entries).filter((k) => show(v.baseline[k]) !== show(w.entries[k]) && !own.some((o) => show(o.entries[k]) === show(w.entries[k])));
      if (leaked.length) return `${r.node} reads ${leaked.join(", ")} written inside ${w.node} (${forkOf(w)})`;
    }
  }
  return null;
}

registerClaims(HOME, view, claims);
