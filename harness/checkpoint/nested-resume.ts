/**
 * What a resumed call did inside a nested fan-out (fixture 076; pipeline-utilities §10.11
 * `enclosing_fan_out_lineage`, *No mis-skip across enclosing instances*): per outer instance of the
 * top-level fan-out, the inner fan-out's resolved count, the inner instances it dispatched and
 * skipped, and the `completed` set of the saved inner entry whose lineage names that outer instance.
 */
import type { Observation } from "../../src/conformance/observation.ts";
import { fmt, range, sameSet } from "./claims.ts";
import { callEvents, completedInRecord, instancesDispatched, resumedRecord, topFanOut } from "./reading.ts";

export class OuterInstance {
  constructor(
    readonly index: number,
    /** The inner fan-out's resolved instance count in this outer instance. */
    readonly count: number,
    readonly executed: ReadonlySet<number>,
    /** `completed` inner instances of the saved entry whose lineage is this outer instance. */
    readonly ownCompleted: ReadonlySet<number>,
  ) {}

  /** Inner instances not dispatched in this outer instance. */
  get skipped(): ReadonlySet<number> {
    return new Set(range(this.count).filter((i) => !this.executed.has(i)));
  }

  skippedEquals(s: Iterable<number>): boolean {
    return sameSet(this.skipped, s);
  }

  fmtSkipped(): string {
    return fmt(this.skipped);
  }

  fmtExecuted(): string {
    return fmt(this.executed);
  }

  fmtOwn(): string {
    return fmt(this.ownCompleted);
  }
}

export interface NestedResume {
  readonly outerNode: string;
  readonly innerNode: string;
  readonly outer: readonly OuterInstance[];
  /** The record holds an inner entry with no enclosing lineage (the pre-0085 legacy shape). */
  readonly hasLegacyEntry: boolean;
  /** The first outer instance's reason, or null when `test` holds for all. */
  firstMismatch(test: (o: OuterInstance) => string | null): string | null;
}

/** The resumed call's nested fan-out activity, or why it cannot be read. */
export function nestedResume(obs: Observation): NestedResume | string {
  const fan = topFanOut(obs);
  if (typeof fan === "string") return fan;
  const record = resumedRecord(obs);
  if (typeof record === "string") return record;
  const events = callEvents(obs);
  const heads = events.filter((e) => e.namespace.length === 2 && e.namespace[0] === fan.node && e.phase === "started" && e.fanOutConfig !== undefined);
  const names = [...new Set(heads.map((e) => e.nodeName))];
  if (names.length !== 1) return `the resumed call ran ${names.length} fan-outs nested in '${fan.node}' instances (expected one)`;
  const inner = names[0]!;
  const outer: OuterInstance[] = [];
  for (let i = 0; i < fan.count; i++) {
    const head = heads.filter((e) => e.fanOutIndexChain[0] === i).at(-1);
    const count = head?.fanOutConfig?.itemCount ?? 0;
    const executed = new Set(instancesDispatched(events, [fan.node, inner], [i]).keys());
    outer.push(new OuterInstance(i, count, executed, completedInRecord(record, inner, { node: fan.node, index: i })));
  }
  const hasLegacyEntry = (record.fan_out_progress ?? []).some((e) => e.fan_out_node_name === inner && (e.enclosing_fan_out_lineage ?? []).length === 0);
  return {
    outerNode: fan.node,
    innerNode: inner,
    outer,
    hasLegacyEntry,
    firstMismatch: (test) => {
      for (const o of outer) {
        const r = test(o);
        if (r !== null) return r;
      }
      return null;
    },
  };
}
