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
  seconds: number;
}

export function summarize(results: ReadonlyArray<CaseResult>): CapabilitySummary[] {
  const by = new Map<string, CapabilitySummary>();
  for (const r of results) {
    const cap = r.fixture.slice(0, r.fixture.indexOf("/"));
    let s = by.get(cap);
    if (!s) by.set(cap, (s = { capability: cap, passed: 0, failed: 0, skipped: 0, seconds: 0 }));
    s[r.status]++;
    s.seconds += r.durationMs / 1000;
  }
  return [...by.values()].sort((a, b) => a.capability.localeCompare(b.capability));
}

/** A plain-text table: capability | passed | failed | skipped | seconds, with a total row. */
export function formatSummary(results: ReadonlyArray<CaseResult>): string {
  const rows = summarize(results);
  const total = rows.reduce(
    (t, r) => ({ capability: "total", passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped, seconds: t.seconds + r.seconds }),
    { capability: "total", passed: 0, failed: 0, skipped: 0, seconds: 0 },
  );
  const cells = [...rows, total].map((r) => [r.capability, String(r.passed), String(r.failed), String(r.skipped), r.seconds.toFixed(2)]);
  const head = ["capability", "passed", "failed", "skipped", "seconds"];
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

export interface JsonReport {
  readonly adapterVersion: string;
  readonly specVersion: string;
  readonly results: ReadonlyArray<CaseResult>;
}

export function writeJsonReport(file: string, results: ReadonlyArray<CaseResult>): void {
  const report: JsonReport = { adapterVersion: ADAPTER_VERSION, specVersion: SPEC_VERSION, results };
  writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
}
