import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { classify } from "../../harness/graph/reading.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { capturedNodeEvents } from "../../harness/pipeline/reading.ts";

/**
 * `node_completed_event_carries_error: {node_name, error_category}` (conformance-adapter §5.5),
 * under `expected:` (never in a typed-event collector slot): among the node events the call
 * dispatched — at every depth, read by the adapter's own capture observer on the outermost graph
 * (a parent-attached observer receives inner events, graph-engine §6), so the case needs no
 * `observers:` — exactly one is a `completed` event from `node_name`, and its error's category,
 * read by the §5.8 category rule, is `error_category`.
 */
@directive({ name: "node_completed_event_carries_error", at: "expected", home: "general", summary: "the node's one completed event carries an error of this category" })
export class NodeCompletedEventCarriesError {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    required: ["node_name", "error_category"],
    additionalProperties: false,
    properties: { node_name: { type: "string", minLength: 1 }, error_category: { type: "string", minLength: 1 } },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase(ctx.slot);
  }
  check(value: { node_name: string; error_category: string }, obs: Observation, ctx: CheckContext): void {
    const completed = capturedNodeEvents(obs, ctx).filter((e) => e.phase === "completed" && e.nodeName === value.node_name);
    if (completed.length !== 1) {
      ctx.fail(`expected exactly one completed event from node '${value.node_name}', the call dispatched ${completed.length}`, { path: `${ctx.label}.node_name` });
      return;
    }
    const error = (completed[0] as (typeof completed)[number]).error;
    if (error === undefined) {
      ctx.fail(`node '${value.node_name}' completed without an error`, { path: `${ctx.label}.error_category`, expected: value.error_category, actual: null });
      return;
    }
    ctx.match(value.error_category, classify(error).category, null, `${ctx.label}.error_category`);
  }
}
