import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { bothRuns, settle } from "../../../harness/checkpoint/claims.ts";
import { correlationIdOf } from "../../../harness/checkpoint/reading.ts";
import { CheckpointSaves } from "../../../harness/checkpoint/facets.ts";
import { callEvents } from "../../../harness/checkpoint/reading.ts";

/** `correlation_id_uniform_across_both_runs` (fixture 031; observability §3): every node event and every saved record of the first and the resumed run carries the same correlation id. */
@directive({ name: "correlation_id_uniform_across_both_runs", at: "invariant", home: "pipeline-utilities" })
export class CorrelationIdUniformAcrossBothRuns {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const runs = bothRuns(obs, ctx);
    if (runs === null) return;
    const seen = new Set<string | null>();
    for (const run of [runs.first, runs.resume]) {
      seen.add(correlationIdOf(run));
      for (const e of callEvents(run)) seen.add(e.correlationId);
      for (const s of run.tryGet(CheckpointSaves) ?? []) seen.add(s.record.correlation_id);
    }
    settle(value, ctx, seen.size === 1 && !seen.has(null) ? null : `the runs carry ${seen.size} correlation ids: ${[...seen].join(", ")}`);
  }
}
