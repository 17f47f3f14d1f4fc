import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { backendOverride, CHECKPOINTER_SCHEMA, parseBackend } from "../../harness/checkpoint/backends.ts";
import { checkpointCase } from "../../harness/checkpoint/case.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

/**
 * `checkpointer: <name>` (conformance-adapter §5.6, pipeline-utilities §10.1.1): register a
 * Checkpointer of the named backend for the case's graph — `in_memory`, `sqlite`, or
 * `{kind: in_memory_batched, fan_out_internal_save_batching: {flush_every}}` (§10.11.4). A name
 * the adapter does not provide is `harness_primitive_missing`. The `OA_CHECKPOINT_BACKEND`
 * override (see `harness/checkpoint/backends.ts`) swaps the base store explicitly.
 */
@directive({ name: "checkpointer", at: "case", home: "general", summary: "the Checkpointer backend the case registers" })
export class CheckpointerDirective {
  readonly schema = CHECKPOINTER_SCHEMA;
  configure(value: Parameters<typeof parseBackend>[0], ctx: ConfigureContext): void {
    const where = ctx.locate(ctx.self.path);
    const spec = parseBackend(value, where);
    backendOverride(where); // a bad override fails here, before anything runs
    checkpointCase(ctx).backend = { spec, path: ctx.self.path };
    useGraphExecutor(ctx);
  }
}
