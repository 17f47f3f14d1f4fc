import { directive } from "../../src/conformance/registry.ts";
import { isNodeEvent, type NodeEvent } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { timedDrain } from "../../harness/graph/drain-summary.ts";

/**
 * `invoke_drain_events_for: {timeout_seconds, snapshot_observer}` (conformance-adapter §5.1,
 * §6.6): before the node returns it calls the engine's real `drainEventsFor(<this invocation>)`
 * with the timeout, then snapshots the named accumulate observer's bucket for the current call.
 * Both are recorded for `node_drain_summaries` / `node_accumulator_snapshots`. Like `drain: {}`
 * (§5.7), an absent or null `timeout_seconds` drains with no timeout: graph-engine §6's
 * per-invocation drain reuses the process-wide drain's summary shape, timeout optional.
 */
@directive({ name: "invoke_drain_events_for", at: "node", home: "general", summary: "per-invocation drain from inside a node" })
export class InvokeDrainEventsFor {
  readonly schema = {
    type: "object",
    additionalProperties: false,
    properties: { timeout_seconds: { type: ["number", "null"], minimum: 0 }, snapshot_observer: { type: "string" } },
  };
  contribute(value: { timeout_seconds?: number | null; snapshot_observer?: string }, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const timeoutMs = value.timeout_seconds === undefined || value.timeout_seconds === null ? null : value.timeout_seconds * 1000;
    const observerName = value.snapshot_observer;
    node.steps.push(async (_state, ctx) => {
      const observer = observerName !== undefined ? env.observer(observerName, [...at, "snapshot_observer"]) : null;
      const drained = await timedDrain(timeoutMs, () => ctx.drainEventsFor({ timeoutMs }));
      const call = env.currentCall();
      const snapshot = observer ? (observer.eventsOf(call.index).filter(isNodeEvent) as NodeEvent[]) : [];
      call.nodeDrains.set(node.name, { ...drained, observer: observerName ?? null, snapshot, invocationId: ctx.invocationId });
    });
  }
}
