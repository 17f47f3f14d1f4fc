import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly, NodeStep } from "../../harness/graph/node-directive.ts";

/**
 * `error_category: <category>` beside a raising body directive (pipeline-utilities, fixture 013):
 * the exception the node's preceding step raises carries this `category` attribute (as an
 * llm-provider §7 error would), so category-reading middleware (timing's `exception_category`,
 * classifiers) see it. The engine still wraps it as `node_exception` (graph-engine §4).
 */
@directive({ name: "error_category", at: "node", home: "pipeline-utilities", summary: "category carried by the error the node raises" })
export class ErrorCategory {
  readonly schema = { type: "string", minLength: 1 };
  contribute(value: string, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    if (node.steps.length === 0) {
      throw new FixtureSchemaInvalid("error_category applies to the error a preceding body directive (e.g. raises) raises", env.locate(at));
    }
    const tag = (e: unknown): never => {
      if (e instanceof Error && typeof (e as { category?: unknown }).category !== "string") {
        Object.defineProperty(e, "category", { value, enumerable: true, configurable: true, writable: false });
      }
      throw e;
    };
    const wrapped: NodeStep[] = node.steps.map((step) => async (state, ctx) => {
      try {
        return await step(state, ctx);
      } catch (e) {
        return tag(e);
      }
    });
    node.steps.splice(0, node.steps.length, ...wrapped);
  }
}
