/**
 * Shared reading for the checkpoint named claims (conformance-adapter §5 *Named claims*, §5.9): the
 * two runs of a resume case, and the fan-out configuration the case declared. A claim computes why
 * it does not hold (or `null`) and settles it against the written value (`settle`).
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { isMapping } from "../../src/conformance/fixture-model.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { callOf } from "./reading.ts";

export { settle } from "../pipeline/claims.ts";

/** The first run and the resume of the case, or why one is missing (reported as a mismatch). */
export function bothRuns(obs: Observation, ctx: CheckContext): { first: Observation; resume: Observation } | null {
  const first = callOf(obs, "first_run");
  const resume = callOf(obs, "resume");
  if (typeof first === "string" || typeof resume === "string") {
    ctx.fail(`${ctx.self.key}: ${typeof first === "string" ? first : (resume as string)}`);
    return null;
  }
  return { first, resume };
}

/** One call of the case (the first run or the resume), or null after reporting why there is none. */
export function oneRun(obs: Observation, ctx: CheckContext, kind: "first_run" | "resume"): Observation | null {
  const o = callOf(obs, kind);
  if (typeof o === "string") {
    ctx.fail(`${ctx.self.key}: ${o}`);
    return null;
  }
  return o;
}

/** What the case's `fan_out:` block for `node` declares (target field, extra outputs, ...). */
export function declaredFanOut(ctx: CheckContext, node: string): Readonly<Record<string, unknown>> | undefined {
  const nodes = ctx.caseSpec.entries.find((e) => e.key === "nodes")?.value;
  if (!isMapping(nodes)) return undefined;
  const body = (nodes as Record<string, unknown>)[node];
  if (!isMapping(body)) return undefined;
  const f = (body as Record<string, unknown>).fan_out;
  return isMapping(f) ? (f as Readonly<Record<string, unknown>>) : undefined;
}

/** `[0, n)`. */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

export function sameSet(a: Iterable<number>, b: Iterable<number>): boolean {
  const x = [...new Set(a)].sort((p, q) => p - q);
  const y = [...new Set(b)].sort((p, q) => p - q);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

export function fmt(s: Iterable<number>): string {
  return `{${[...s].sort((p, q) => p - q).join(", ")}}`;
}
