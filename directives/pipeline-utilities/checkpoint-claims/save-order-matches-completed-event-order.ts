import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { CheckpointSaves } from "../../../harness/checkpoint/facets.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { callEvents } from "../../../harness/checkpoint/reading.ts";

/**
 * `save_order_matches_completed_event_order` (fixture 024; §10.3): the call's completed-event saves
 * were made one per §6 completed event, in the order the events were dispatched.
 */
@directive({ name: "save_order_matches_completed_event_order", at: "invariant", home: "pipeline-utilities" })
export class SaveOrderMatchesCompletedEventOrder {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const saves = obs.get(CheckpointSaves, ctx.locate(ctx.self.path)).filter((s) => s.context?.trigger === "node_completed");
    const saved = saves.map((s) => s.context!.namespace.join("/"));
    const events = callEvents(obs).filter((e) => e.phase === "completed").map((e) => e.namespace.join("/"));
    const same = saved.length > 0 && saved.length === events.length && saved.every((x, i) => x === events[i]);
    settle(value, ctx, same ? null : `saves were made after [${saved.join(", ")}], completed events were [${events.join(", ")}]`);
  }
}
