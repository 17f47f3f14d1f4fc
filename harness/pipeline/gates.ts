/**
 * The catch gates a declared `failure_isolation` entry configures (§6.3 `predicate`, `catch`), read
 * from the fixture's configuration, and the errors a raised call's nodes were isolated against.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { categoryOf, classifyCause } from "../../src/pipeline/middleware/index.ts";
import * as F from "../graph/facets.ts";
import { MiddlewareConfigs, type MiddlewareConfig } from "./case-state.ts";

export interface Gate {
  readonly config: MiddlewareConfig;
  /** `predicate.matches_category`, when configured. */
  readonly predicateCategory: string | undefined;
  /** `catch`, when configured. */
  readonly catchCategories: readonly string[] | undefined;
}

export function gateOf(config: MiddlewareConfig): Gate {
  const p = config.entry.predicate as { matches_category?: string } | undefined;
  return { config, predicateCategory: p?.matches_category, catchCategories: config.entry.catch as string[] | undefined };
}

/** Does the gate let `surface` (the error the wrapped chain raised) through to the degrade path? */
export function gateAccepts(g: Gate, surface: unknown): boolean {
  if (g.predicateCategory !== undefined && categoryOf(surface) !== g.predicateCategory) return false;
  if (g.catchCategories !== undefined) {
    const derived = classifyCause(surface).category;
    if (derived === null || !g.catchCategories.includes(derived)) return false;
  }
  return true;
}

/** The failure_isolation entries declared around `node` (any graph), outermost first. */
export function isolationGatesFor(obs: Observation, ctx: CheckContext, node: string): Gate[] {
  return obs
    .get(MiddlewareConfigs, ctx.locate(ctx.self.path))
    .filter((c) => c.type === "failure_isolation" && (c.node === null || c.node === node))
    .map(gateOf);
}

/** The error the call raised and the node it names, with the node's own raise (below its carrier). */
export function raisedError(obs: Observation, ctx: CheckContext): { error: Error; node: string; surface: unknown } | string {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  if (r.kind !== "errored") return `the call did not raise (${r.kind})`;
  const e = r.error as Error & { nodeName?: string; isCarrier?: boolean };
  if (e.isCarrier !== true || e.nodeName === undefined) return `the call raised ${e.name}, not a node_exception carrier`;
  return { error: e, node: e.nodeName, surface: e.cause };
}
