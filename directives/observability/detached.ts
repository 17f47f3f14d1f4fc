import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";

const NAMES = { type: "array", items: { type: "string", minLength: 1 } } as const;

/** `detached_subgraphs: [<name>, ...]` (observability §4.4): the OTel observer renders these subgraphs into their own trace. */
@directive({ name: "detached_subgraphs", at: "case", home: "observability", summary: "subgraphs rendered as detached traces" })
export class DetachedSubgraphs {
  readonly schema = NAMES;
  configure(value: string[], ctx: ConfigureContext): void {
    for (const n of value) useOtelCapture(ctx).detachedSubgraphs.add(n);
  }
}

/** `detached_fan_outs: [<name>, ...]` (observability §4.4): each instance of these fan-outs gets its own trace. */
@directive({ name: "detached_fan_outs", at: "case", home: "observability", summary: "fan-outs whose instances are detached traces" })
export class DetachedFanOuts {
  readonly schema = NAMES;
  configure(value: string[], ctx: ConfigureContext): void {
    for (const n of value) useOtelCapture(ctx).detachedFanOuts.add(n);
  }
}
