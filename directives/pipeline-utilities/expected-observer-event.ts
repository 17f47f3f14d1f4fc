import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { eventRecord } from "../../harness/graph/reading.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { capturedNodeEvents, EVENT_SHAPE, normalizeEventEntry } from "../../harness/pipeline/reading.ts";

/**
 * `expected_observer_event: {node_name, <event fields>..., <field>_absent: <bool>}` inside
 * `expected:` (pipeline-utilities note, fixture 006): the node's terminal observer event in the
 * call — its last `completed` event (or of the written `phase` / `attempt_index`), as the
 * adapter's capture observer received it — matches the graph-engine §6 fields written, as an
 * `observer_events` entry does. `<field>_absent: true` asserts the event does not carry the field
 * (`error_absent: true`: the node's outcome is not an error); `false` asserts it does.
 */
@directive({ name: "expected_observer_event", at: "expected", home: "pipeline-utilities", summary: "the node's terminal observer event" })
export class ExpectedObserverEvent {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    required: ["node_name"],
    properties: { node_name: { type: "string" }, phase: { enum: ["started", "completed", "suspended"] }, attempt_index: { type: "integer", minimum: 0 } },
    patternProperties: { "_absent$": { type: "boolean" } },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const phase = (value.phase as string | undefined) ?? "completed";
    const candidates = capturedNodeEvents(obs, ctx).filter(
      (e) => e.nodeName === value.node_name && e.phase === phase && (value.attempt_index === undefined || e.attemptIndex === value.attempt_index),
    );
    const event = candidates[candidates.length - 1];
    if (event === undefined) {
      ctx.fail(`node '${String(value.node_name)}' produced no ${phase} event in this call`);
      return;
    }
    const written: Record<string, unknown> = {};
    const absent: string[] = [];
    const record = eventRecord(event);
    for (const [k, v] of Object.entries(value)) {
      if (!k.endsWith("_absent") || k === "absent") {
        written[k] = v;
        continue;
      }
      const field = k.slice(0, -"_absent".length);
      if (v === true) absent.push(field);
      else if (record[field] === undefined || record[field] === null) ctx.fail(`the ${phase} event of '${String(value.node_name)}' carries no '${field}'`, { path: `${ctx.label}.${k}` });
    }
    const entry = normalizeEventEntry(absent.length > 0 ? { ...written, absent_keys: absent } : written);
    ctx.match(entry, record, EVENT_SHAPE);
  }
}
