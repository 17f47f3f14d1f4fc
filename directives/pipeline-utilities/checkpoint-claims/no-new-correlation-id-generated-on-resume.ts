import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { bothRuns, settle } from "../../../harness/checkpoint/claims.ts";
import { correlationIdOf } from "../../../harness/checkpoint/reading.ts";
import { CheckpointSaves } from "../../../harness/checkpoint/facets.ts";
import { callEvents } from "../../../harness/checkpoint/reading.ts";

/** `no_new_correlation_id_generated_on_resume` (fixture 031; §10.4 step 3): the resumed run, its events and its saved records all carry the first run's correlation id — none was minted. */
@directive({ name: "no_new_correlation_id_generated_on_resume", at: "invariant", home: "pipeline-utilities" })
export class NoNewCorrelationIdGeneratedOnResume {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const runs = bothRuns(obs, ctx);
    if (runs === null) return;
    const original = correlationIdOf(runs.first);
    const used = new Set<string | null>([correlationIdOf(runs.resume)]);
    for (const e of callEvents(runs.resume)) used.add(e.correlationId);
    for (const s of runs.resume.tryGet(CheckpointSaves) ?? []) used.add(s.record.correlation_id);
    used.delete(original);
    settle(value, ctx, original !== null && used.size === 0 ? null : `the resumed run used ${[...used].join(", ")} besides the original '${original}'`);
  }
}
