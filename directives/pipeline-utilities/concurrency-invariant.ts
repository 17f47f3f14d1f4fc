import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import { isNodeEvent, type NodeEvent, type ObserverEvent } from "../../src/graph/index.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";

/** Every node event of the call, as dispatched (harness instrumentation for the invariant). */
const DispatchLog = new Facet<NodeEvent[]>("fan-out dispatch log");

/**
 * `concurrency_invariant: {max_in_flight: N}` (pipeline-utilities fixture 022, §9 concurrency):
 * at no point were more than N fan-out instances active. An instance is active from its first
 * inner node's `started` event to its last inner node's `completed` event; the harness replays the
 * events of the call in dispatch order, read through an invocation observer it attaches itself.
 */
@directive({ name: "concurrency_invariant", at: "expected", home: "pipeline-utilities", summary: "fan-out instances in flight never exceeded N" })
export class ConcurrencyInvariant {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    required: ["max_in_flight"],
    additionalProperties: false,
    properties: { max_in_flight: { type: "integer", minimum: 1 } },
  };
  configure(_v: unknown, ctx: ConfigureContext): void {
    const hooks = ctx.slot(GraphCaseHooksSlot);
    hooks.invokeOptions.push(({ observation }) => {
      const log: NodeEvent[] = [];
      observation.set(DispatchLog, log);
      return { observers: [{ name: "concurrency_invariant", observer: (e: ObserverEvent) => void (isNodeEvent(e) && log.push(e)) }] };
    });
  }
  check(value: { max_in_flight: number }, obs: Observation, ctx: CheckContext): void {
    const log = obs.get(DispatchLog, ctx.locate(ctx.self.path));
    const open = new Map<string, number>(); // instance key -> open node attempts
    let max = 0;
    let instances = 0;
    for (const e of log) {
      if (e.fanOutIndex === undefined) continue;
      const key = JSON.stringify([e.namespace[0], e.fanOutIndexChain]);
      const n = open.get(key) ?? 0;
      if (e.phase === "started") {
        if (n === 0) instances++;
        open.set(key, n + 1);
      } else if (n > 0) {
        if (n === 1) open.delete(key);
        else open.set(key, n - 1);
      }
      max = Math.max(max, open.size);
    }
    if (instances === 0) ctx.fail("no fan-out instance ran, so nothing shows the bound held");
    else if (max > value.max_in_flight) ctx.fail(`up to ${max} instances were in flight, above the bound ${value.max_in_flight}`, { expected: value.max_in_flight, actual: max });
  }
}
