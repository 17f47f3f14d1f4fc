/**
 * `abort_after_instance: <n>` (pipeline-utilities note, fixtures 052, 056 — "harness directive:
 * process-level abort"): the fan-out node's process dies right after instance `n`'s completion save,
 * before instance `n + 1` is dispatched. The node kind is wrapped so that dispatching any instance
 * past `n` (the next one, under serial execution) kills the invocation's persistence — nothing more
 * is saved, so the Checkpointer keeps the record as of instance `n`'s save — and makes the fan-out
 * node raise a {@link ProcessAbort} once its dispatch loop unwinds, which the engine surfaces as the
 * node's `node_exception` (the "simulated crash propagates out of the fan-out's dispatch loop").
 * Under `collect` the instances past `n` fail fast with the same abort, so nothing of them runs.
 * The process dies once: while `armed()` is false (after the abort, e.g. in the resumed run) the
 * node runs unwrapped.
 */
import type { NodeExecutionContext, NodeKind, StateRecord, SubgraphRunOptions } from "../../src/graph/index.ts";
import { ProcessAbort } from "./crash.ts";

export function abortAfterInstance(kind: NodeKind, n: number, onAbort: (invocationId: string) => void, armed: () => boolean = () => true): NodeKind {
  const wrapped: NodeKind = {
    kind: kind.kind,
    ...(kind.emitsEvents !== undefined ? { emitsEvents: kind.emitsEvents } : {}),
    ...(kind.subgraphs !== undefined ? { subgraphs: kind.subgraphs } : {}),
    ...(kind.validate ? { validate: (c) => kind.validate!(c) } : {}),
    ...(kind.eventFields ? { eventFields: (s) => kind.eventFields!(s) } : {}),
    async run(state, ctx) {
      if (!armed()) return kind.run(state, ctx);
      let aborted = false;
      const message = `process-level abort after fan-out instance ${n} (abort_after_instance)`;
      const runSubgraph = (graph: Parameters<NodeExecutionContext["runSubgraph"]>[0], input: Readonly<Record<string, unknown>>, opts?: SubgraphRunOptions) => {
        if ((opts?.fanOutIndex ?? -1) > n) {
          if (!aborted) {
            aborted = true;
            onAbort(ctx.invocationId);
          }
          return Promise.reject(new ProcessAbort(message));
        }
        return ctx.runSubgraph(graph, input, opts);
      };
      // Everything else reads (and writes) the engine's own context.
      const view = new Proxy(ctx, {
        get(target, p) {
          if (p === "runSubgraph") return runSubgraph;
          const v = Reflect.get(target, p, target) as unknown;
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      }) as NodeExecutionContext<StateRecord>;
      let out: unknown;
      try {
        out = await kind.run(state, view);
      } catch (e) {
        if (aborted) throw new ProcessAbort(message, { cause: e });
        throw e;
      }
      if (aborted) throw new ProcessAbort(message);
      return out as Partial<StateRecord>;
    },
  };
  return wrapped;
}
