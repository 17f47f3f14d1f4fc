import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { CheckpointSaves } from "../../../harness/checkpoint/facets.ts";

/** `save_count: <n>` (fixture 024; §10.3): the call made exactly n `Checkpointer.save` calls. */
@directive({ name: "save_count", at: "invariant", home: "pipeline-utilities" })
export class SaveCount {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    ctx.match(value, obs.get(CheckpointSaves, ctx.locate(ctx.self.path)).length, null);
  }
}
