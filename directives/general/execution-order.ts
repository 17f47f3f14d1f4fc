import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `execution_order: [<node>, ...]` (conformance-adapter §5.8): one entry per execution of an
 * outermost-graph node, in the order executions began; complete and ordered. Read from the
 * engine's own record of the invocation (also present on an errored call).
 */
@directive({ name: "execution_order", at: "expected", home: "general", summary: "outermost node executions, in order" })
export class ExecutionOrder {
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    const order = obs.tryGet(F.ExecutionOrder);
    if (order === undefined) {
      ctx.fail(`no node executed: ${describeResult(obs.get(F.Result, ctx.locate(ctx.self.path)))}`);
      return;
    }
    ctx.match(value, order, null);
  }
}
