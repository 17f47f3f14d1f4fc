/**
 * The written configuration of a case's composite nodes, for named claims whose meaning is stated
 * in terms of it (the fan-out's collect / target / extra_outputs fields, a parallel-branches node's
 * branches). Read from the case's `nodes:` entries as the fixture wrote them.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";

function nodeBodies(ctx: CheckContext): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const e of ctx.caseSpec.entries) {
    if (e.key !== "nodes" || typeof e.value !== "object" || e.value === null) continue;
    for (const body of Object.values(e.value as Record<string, Record<string, unknown> | null>)) if (body) out.push(body);
  }
  return out;
}

/** The first node's `fan_out:` block, or null. */
export function fanOutBlock(ctx: CheckContext): { collect_field?: string; target_field?: string; extra_outputs?: Record<string, string> } | null {
  for (const body of nodeBodies(ctx)) {
    const fo = body.fan_out;
    if (typeof fo === "object" && fo !== null) return fo as ReturnType<typeof fanOutBlock> & object;
  }
  return null;
}

/** Every parallel-branches branch `[name, spec]`, across the case's nodes. */
export function branchSpecs(ctx: CheckContext): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const body of nodeBodies(ctx)) {
    const pb = body.parallel_branches as { branches?: Record<string, Record<string, unknown>> } | undefined;
    if (pb?.branches) out.push(...Object.entries(pb.branches));
  }
  return out;
}
