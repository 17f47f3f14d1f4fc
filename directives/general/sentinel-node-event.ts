import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { CollectorInView } from "../../harness/observability/typed-events.ts";
import { COLLECTOR_POSITION } from "./typed-observers.ts";

/**
 * `sentinel_node_event_emission_is_impl_defined: true` (observability 051): whether a
 * sentinel-namespaced NodeEvent (`node_name: openarmature.llm.complete`) accompanies each typed
 * LLM event is the implementation's choice; what holds either way is that a sentinel never
 * stands in for the typed event — the collector holds at least as many LlmCompletionEvents as
 * sentinel NodeEvents for completed calls.
 */
@directive({ name: "sentinel_node_event_emission_is_impl_defined", at: COLLECTOR_POSITION, home: "observability", section: "observability 051", summary: "a sentinel NodeEvent never replaces the typed LLM event" })
export class SentinelNodeEventEmissionIsImplDefined {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const v = obs.get(CollectorInView, ctx.locate(ctx.self.path));
    const sentinels = v.events.filter((e) => e.type === "NodeEvent" && e.record["node_name"] === "openarmature.llm.complete" && e.record["phase"] === "completed").length;
    const typed = v.events.filter((e) => e.type === "LlmCompletionEvent").length;
    const holds = typed >= 1 && typed >= sentinels;
    if (holds !== value) ctx.fail(`collector '${v.name}' holds ${typed} LlmCompletionEvent and ${sentinels} sentinel NodeEvents`);
  }
}
