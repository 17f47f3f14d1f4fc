import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { CheckpointCallLog, CheckpointSaves } from "../../../harness/checkpoint/facets.ts";

const scope = (x: unknown): string => String(x ?? "graph");

/**
 * `batching_scoped_to_fan_out_internal_saves_only` (fixture 054; §10.11.4): with a batching backend, every
 * save outside fan-out internals (outermost, subgraph-internal, the fan-out node's own) was durable
 * when it returned — across every call of the case; only fan-out internal saves were buffered.
 */
@directive({ name: "batching_scoped_to_fan_out_internal_saves_only", at: "invariant", home: "pipeline-utilities" })
export class BatchingScopedToFanOutInternalSavesOnly {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const log = obs.tryGet(CheckpointCallLog);
    const calls = log?.calls ?? [];
    const saves = calls.flatMap((c) => c.observation.tryGet(CheckpointSaves) ?? []);
    if (saves.length === 0) return settle(value, ctx, "the case made no checkpoint save");
    const bad = saves.find((s) => s.context?.scope !== "fan_out_internal" && !s.durable);
    const synchronous = saves.filter((x) => x.context?.scope !== "fan_out_internal");
    const reason =
      bad !== undefined ? `a ${scope(bad.context?.scope)} save at ${bad.context?.namespace.join("/")} was buffered, not durable`
      : synchronous.length === 0 ? "no outermost / subgraph / fan-out-node save was made to check"
      : null;
    settle(value, ctx, reason);
  }
}
