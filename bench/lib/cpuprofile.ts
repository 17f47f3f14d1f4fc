/** Summaries of a V8 `.cpuprofile` (self time and inclusive time per function). */

export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly scriptId: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface FrameTime {
  readonly frame: string;
  readonly selfPct: number;
  readonly totalPct: number;
}

/** Maps a generated position (0-based) to the original 1-based source line, when known. */
export type LineResolver = (scriptId: string, line: number, column: number) => number | undefined;

function frameKey(n: CpuProfileNode, root: string, resolve: LineResolver | undefined): string {
  const cf = n.callFrame;
  const url = cf.url
    .replace(/^file:\/\//, "")
    .replace(root, "")
    .replace(/^.*node_modules\//, "~/");
  const line = resolve?.(cf.scriptId, cf.lineNumber, cf.columnNumber) ?? cf.lineNumber + 1;
  return `${cf.functionName || "(anonymous)"} ${url ? `${url}:${line}` : ""}`.trim();
}

/**
 * Per-function self and inclusive shares of the sampled time, sorted by self time. `resolve` maps
 * transpiled positions back to source lines (tsx emits whole modules on one line).
 */
export function summarizeProfile(p: CpuProfile, projectRoot: string, resolve?: LineResolver): FrameTime[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfById = new Map<number, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    total += dt;
    selfById.set(id, (selfById.get(id) ?? 0) + dt);
  });
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  for (const [id, t] of selfById) {
    const k = frameKey(byId.get(id)!, projectRoot, resolve);
    self.set(k, (self.get(k) ?? 0) + t);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = frameKey(byId.get(cur)!, projectRoot, resolve);
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + t);
    }
  }
  const pct = (t: number): number => (total > 0 ? (100 * t) / total : 0);
  return [...incl.keys()]
    .map((frame) => ({ frame, selfPct: pct(self.get(frame) ?? 0), totalPct: pct(incl.get(frame)!) }))
    .sort((a, b) => b.selfPct - a.selfPct);
}
