import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import * as F from "../../harness/graph/facets.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { completedState } from "../../harness/graph/reading.ts";
import type { TypeNode } from "../../src/graph/index.ts";

/**
 * Exact, except that a field declared as a bare `list`, or as a `list<R>` of a record type `R` the
 * fixture does not define (an open record: the engine writes it, e.g. `list<error_entry>` for a
 * collect-mode errors field), holds records whose shape the spec leaves to the implementation: its
 * entries, written `{}`, match any non-null entry — the list is asserted by count (§8.4 Mappings).
 */
export function finalStateShape(obs: Observation): Shape {
  const graph = obs.tryGet(F.RootGraph);
  const keys: Record<string, Shape> = {};
  if (graph) {
    const open = (t: TypeNode | undefined): boolean => t?.kind === "record" && graph.schema.records.get(t.name)?.fields.size === 0;
    for (const f of graph.schema.fields.values()) {
      if (f.typeString === "list" || (f.type.kind === "list" && open(f.type.item))) keys[f.name] = Shapes.list("ordered", Shapes.named());
    }
  }
  return Object.keys(keys).length > 0 ? Shapes.exact({ keys }) : Shapes.exact();
}

/**
 * `final_state:` (conformance-adapter §5.8): the invocation's final state, exact (§8.4): every
 * declared field and no other key, plain data compared exactly at every depth.
 */
@directive({ name: "final_state", at: "expected", home: "general", summary: "the final state, exact" })
export class FinalState {
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const state = completedState(obs, ctx);
    if (state !== null) ctx.match(value, state, finalStateShape(obs));
  }
}
