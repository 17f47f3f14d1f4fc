/**
 * Reports: the per-capability summary table printed at the end of every run, and the stable
 * `--json` report format.
 */
import { writeFileSync } from "node:fs";
import type { CaseResult } from "./run.ts";
import { ADAPTER_VERSION, SPEC_VERSION } from "./version.ts";

export interface CapabilitySummary {
  readonly capability: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Uses of retired vocabulary (the `legacy` bundle) in the capability's cases. */
  deprecated: number;
  seconds: number;
}

export function summarize(results: ReadonlyArray<CaseResult>): CapabilitySummary[] {
  const by = new Map<string, CapabilitySummary>();
  for (const r of results) {
    const cap = r.fixture.slice(0, r.fixture.indexOf("/"));
    let s = by.get(cap);
    if (!s) by.set(cap, (s = { capability: cap, passed: 0, failed: 0, skipped: 0, deprecated: 0, seconds: 0 }));
    s[r.status]++;
    s.deprecated += r.deprecations.length;
    s.seconds += r.durationMs / 1000;
  }
  return [...by.values()].sort((a, b) => a.capability.localeCompare(b.capability));
}

/**
 * A plain-text table: capability | passed | failed | skipped | seconds, with a total row; when any
 * case used retired vocabulary, a `deprecated` column (uses per capability) before `seconds`.
 */
export function formatSummary(results: ReadonlyArray<CaseResult>): string {
  const rows = summarize(results);
  const total = rows.reduce(
    (t, r) => ({
      capability: "total",
      passed: t.passed + r.passed,
      failed: t.failed + r.failed,
      skipped: t.skipped + r.skipped,
      deprecated: t.deprecated + r.deprecated,
      seconds: t.seconds + r.seconds,
    }),
    { capability: "total", passed: 0, failed: 0, skipped: 0, deprecated: 0, seconds: 0 },
  );
  const withDeprecated = total.deprecated > 0;
  const cells = [...rows, total].map((r) => [r.capability, String(r.passed), String(r.failed), String(r.skipped), ...(withDeprecated ? [String(r.deprecated)] : []), r.seconds.toFixed(2)]);
  const head = ["capability", "passed", "failed", "skipped", ...(withDeprecated ? ["deprecated"] : []), "seconds"];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]): string => c.map((v, i) => (i === 0 ? v.padEnd(widths[i] as number) : v.padStart(widths[i] as number))).join("  ");
  const sep = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(head), sep, ...cells.slice(0, -1).map(line), sep, line(cells[cells.length - 1] as string[])].join("\n");
}

/** Failure categories, most frequent first, e.g. `fixture_directive_unknown 380`. */
export function formatCategories(results: ReadonlyArray<CaseResult>): string {
  const counts = new Map<string, number>();
  for (const r of results) if (r.status === "failed") counts.set(r.category ?? "?", (counts.get(r.category ?? "?") ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([c, n]) => `  ${c}: ${n}`).join("\n");
}

/** Uses of retired vocabulary per directive: how many, the replacement, and where (the first `limit` locations each). */
export interface DeprecationSummary {
  readonly directive: string;
  readonly replacement: string;
  readonly section: string;
  readonly count: number;
  readonly locations: ReadonlyArray<string>;
}

export function summarizeDeprecations(results: ReadonlyArray<CaseResult>): DeprecationSummary[] {
  const by = new Map<string, { directive: string; replacement: string; section: string; count: number; locations: string[] }>();
  for (const r of results) {
    for (const d of r.deprecations) {
      let s = by.get(d.directive);
      if (!s) by.set(d.directive, (s = { directive: d.directive, replacement: d.replacement, section: d.section, count: 0, locations: [] }));
      s.count++;
      s.locations.push(d.location);
    }
  }
  return [...by.values()].sort((a, b) => b.count - a.count || a.directive.localeCompare(b.directive));
}

/**
 * The deprecation block printed after the table: each retired directive used, how often, its
 * replacement and where (at most `limit` locations each); "" when nothing retired was used.
 */
export function formatDeprecations(results: ReadonlyArray<CaseResult>, limit = 5): string {
  const all = summarizeDeprecations(results);
  if (all.length === 0) return "";
  const total = all.reduce((n, d) => n + d.count, 0);
  const lines = [`deprecated vocabulary: ${total} use${total === 1 ? "" : "s"} of vocabulary the 0.120.1 seed retires or never defined (checked through their replacements; --strict-vocabulary refuses them)`];
  for (const d of all) {
    lines.push(`  ${d.directive} ×${d.count} → ${d.replacement} (${d.section})`);
    for (const at of d.locations.slice(0, limit)) lines.push(`    at ${at}`);
    if (d.locations.length > limit) lines.push(`    (${d.locations.length - limit} more)`);
  }
  return lines.join("\n");
}

export interface JsonReport {
  readonly adapterVersion: string;
  readonly specVersion: string;
  /** Whether retired vocabulary was refused (`--strict-vocabulary`). */
  readonly strictVocabulary: boolean;
  /** Uses of retired vocabulary per directive (each record lists its own under `deprecations`). */
  readonly deprecations: ReadonlyArray<DeprecationSummary>;
  readonly results: ReadonlyArray<CaseResult>;
}

export function writeJsonReport(file: string, results: ReadonlyArray<CaseResult>, strictVocabulary = false): void {
  const report: JsonReport = { adapterVersion: ADAPTER_VERSION, specVersion: SPEC_VERSION, strictVocabulary, deprecations: summarizeDeprecations(results), results };
  writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
}
