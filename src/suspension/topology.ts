/**
 * What suspension needs to know about a compiled graph's composite nodes: which node kind runs
 * the child a `suspend()` call sits in, and that kind's error policy (§8.2 / §8.3 `collect`
 * rejection) — read through the engine's public {@link CompiledGraph.node} introspection.
 */
import type { CompiledGraph, NodeKind, StateRecord } from "../graph/index.ts";
import { childGraphOf } from "../checkpoint/topology.ts";

type AnyGraph = CompiledGraph<StateRecord, unknown>;

/** Which `collect`-mode composite contains the call, if any. */
export type CollectContext = "collect_fan_out" | "collect_parallel_branches" | null;

/**
 * Walk the namespace of a node from the outermost graph: at each level, the node there runs the
 * child graph the next level lives in. Returns the first `collect`-mode fan-out / parallel-branches
 * level whose instance / branch contains the call. Levels the walk cannot follow (an unknown
 * composite) end it without a verdict.
 */
export function collectContext(
  root: AnyGraph,
  namespace: readonly string[],
  fanOutIndexChain: readonly (number | null)[],
  branchNameChain: readonly (string | null)[],
): CollectContext {
  let g: AnyGraph | undefined = root;
  for (let i = 0; i < namespace.length - 1 && g !== undefined; i++) {
    const name = namespace[i]!;
    const kind: NodeKind<StateRecord, unknown> | undefined = g.node(name)?.kind;
    if (kind === undefined) return null;
    const fi = fanOutIndexChain[i];
    const bn = branchNameChain[i];
    if (kind.kind === "fan_out" && fi !== null && fi !== undefined) {
      if (kind.errorPolicy === "collect") return "collect_fan_out";
      g = kind.childGraph?.({ fanOutIndex: fi });
      continue;
    }
    if (kind.kind === "parallel_branches" && bn !== null && bn !== undefined) {
      if (kind.errorPolicy === "collect") return "collect_parallel_branches";
      g = kind.childGraph?.({ branchName: bn }); // a `call` branch: nothing deeper
      continue;
    }
    g = childGraphOf(g, name);
  }
  return null;
}
