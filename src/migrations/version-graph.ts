/**
 * The version graph behind state migrations (pipeline-utilities §10.12, sessions §7): migrations
 * are edges `fromVersion → toVersion`; a load applies the unique shortest chain between the saved
 * and the current version. Both registries (checkpoint and session) share this search and differ
 * only in the error categories they raise.
 */

export interface VersionEdge {
  readonly fromVersion: string;
  readonly toVersion: string;
}

export type ChainResult<M> =
  | { readonly status: "found"; readonly chain: readonly M[] }
  | { readonly status: "missing" }
  | { readonly status: "ambiguous" };

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class VersionGraph<M extends VersionEdge> {
  readonly #byPair = new Map<string, M>();
  readonly #out = new Map<string, M[]>();

  /** Add an edge; false when the pair is already registered (callers raise their own error). */
  add(m: M): boolean {
    const key = JSON.stringify([m.fromVersion, m.toVersion]);
    if (this.#byPair.has(key)) return false;
    this.#byPair.set(key, m);
    const list = this.#out.get(m.fromVersion) ?? [];
    list.push(m);
    list.sort((x, y) => cmp(x.toVersion, y.toVersion));
    this.#out.set(m.fromVersion, list);
    return true;
  }

  get size(): number {
    return this.#byPair.size;
  }

  /** The edges, ordered by `(fromVersion, toVersion)`. */
  get edges(): readonly M[] {
    return [...this.#byPair.values()].sort((x, y) => cmp(x.fromVersion, y.fromVersion) || cmp(x.toVersion, y.toVersion));
  }

  /** `"v1" -> "v2", "v2" -> "v3"` or `(none)`: the `registry_description` both specs name. */
  describe(): string {
    const list = this.edges;
    return list.length === 0 ? "(none)" : list.map((m) => `${JSON.stringify(m.fromVersion)} -> ${JSON.stringify(m.toVersion)}`).join(", ");
  }

  /** The unique shortest chain `from → to` (empty when equal). */
  chain(from: string, to: string): ChainResult<M> {
    if (from === to) return { status: "found", chain: [] };
    const { count, pred } = this.#bfs(from);
    const c = count.get(to);
    if (c === undefined) return { status: "missing" };
    if (c > 1) return { status: "ambiguous" };
    const chain: M[] = [];
    for (let v = to; v !== from; ) {
      const m = pred.get(v) as M;
      chain.push(m);
      v = m.fromVersion;
    }
    return { status: "found", chain: chain.reverse() };
  }

  /** The first pair (in version order) joined by two shortest chains, or null. */
  firstAmbiguity(): { readonly from: string; readonly to: string } | null {
    for (const from of [...this.#out.keys()].sort(cmp)) {
      const { count } = this.#bfs(from);
      for (const to of [...count.keys()].sort(cmp)) if ((count.get(to) as number) > 1) return { from, to };
    }
    return null;
  }

  /** BFS from `from`: shortest-path counts (capped at 2) and one predecessor per reached version. */
  #bfs(from: string): { count: Map<string, number>; pred: Map<string, M> } {
    const dist = new Map<string, number>([[from, 0]]);
    const count = new Map<string, number>([[from, 1]]);
    const pred = new Map<string, M>();
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      const u = queue[i] as string;
      const du = dist.get(u) as number;
      const cu = count.get(u) as number;
      for (const m of this.#out.get(u) ?? []) {
        const v = m.toVersion;
        const dv = dist.get(v);
        if (dv === undefined) {
          dist.set(v, du + 1);
          count.set(v, cu);
          pred.set(v, m);
          queue.push(v);
        } else if (dv === du + 1) {
          count.set(v, Math.min(2, (count.get(v) as number) + cu));
        }
      }
    }
    return { count, pred };
  }
}
