import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { CheckpointCase } from "../../harness/checkpoint/case.ts";
import { abortAfterInstance } from "../../harness/checkpoint/process-abort.ts";
import { FanOut } from "../general/fan-out.ts";

/**
 * `fan_out:` as the pipeline-utilities note refines it (fixtures 052, 056): the general definition,
 * plus the harness directive `abort_after_instance: <n>` — a process-level abort right after
 * instance `n`'s completion save (`harness/checkpoint/process-abort.ts`). The process dies once per
 * case: the resumed run (fixture 052's `resume:`) dispatches the remaining instances.
 */
@directive({ name: "fan_out", at: "node", home: "pipeline-utilities", summary: "parallel fan-out (with the note's abort_after_instance)" })
export class PipelineFanOut extends FanOut {
  override contribute(v: Parameters<FanOut["contribute"]>[0], node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const { abort_after_instance: n, ...rest } = v;
    super.contribute(rest as Parameters<FanOut["contribute"]>[0], node, env, at);
    if (n === undefined) return;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0) {
      throw new FixtureSchemaInvalid("'abort_after_instance' must be a non-negative integer (a fan-out instance index)", env.locate([...at, "abort_after_instance"]));
    }
    const made = node.kind!;
    let died = false;
    const abort = (id: string): void => {
      died = true;
      env.slot(CheckpointCase).processAbort(id);
    };
    node.kind = { ...made, make: (p) => abortAfterInstance(made.make(p), n, abort, () => !died) };
  }
}
