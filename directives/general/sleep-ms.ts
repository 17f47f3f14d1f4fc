import { directive } from "../../src/conformance/registry.ts";
import { cancellationSignal } from "../../src/pipeline/index.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";

/**
 * `sleep_ms: <int>` on a node: the node waits that long before its later directives run. The wait
 * honors fan-out / parallel-branches cancellation (pipeline-utilities §9, §11 fail_fast), so a
 * cancelled sibling stops waiting instead of running on.
 */
@directive({ name: "sleep_ms", at: "node", home: "general", summary: "wait before the node's next directive" })
export class SleepMs {
  readonly schema = { type: "integer", minimum: 0 };
  contribute(value: number, node: NodeAssembly): void {
    node.steps.push(
      () =>
        new Promise<void>((resolve, reject) => {
          const signal = cancellationSignal();
          if (signal?.aborted) return reject(signal.reason);
          const onAbort = (): void => {
            clearTimeout(t);
            reject(signal!.reason);
          };
          // The scope's signal outlives this wait: drop the listener when the timer fires.
          const t = setTimeout(() => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          }, value);
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
    );
  }
}
