import { directive } from "../../src/conformance/registry.ts";
import { FixtureDirectiveUnknown } from "../../src/conformance/errors.ts";
import { parallelBranches } from "../../src/pipeline/index.ts";
import type { StateRecord } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

interface BranchValue {
  subgraph?: string;
  inputs?: Record<string, string>;
  outputs?: Record<string, string>;
  [other: string]: unknown;
}

/** Branch keys the pipeline-utilities note defines that this adapter does not drive yet. */
const NOT_YET = ["call", "when", "middleware", "augment_metadata", "augment_metadata_from_outer_item"];

/**
 * `parallel_branches:` (conformance-adapter §5.4, pipeline-utilities §11): each named branch runs
 * its declared subgraph concurrently; `outputs` project each branch's fields back into the parent.
 */
@directive({ name: "parallel_branches", at: "node", home: "general", summary: "parallel branches over subgraphs" })
export class ParallelBranches {
  readonly schema = {
    type: "object",
    required: ["branches"],
    additionalProperties: false,
    properties: {
      branches: {
        type: "object",
        minProperties: 1,
        additionalProperties: {
          type: "object",
          additionalProperties: false,
          properties: {
            subgraph: { type: "string" },
            inputs: { type: "object", additionalProperties: { type: "string" } },
            outputs: { type: "object", additionalProperties: { type: "string" } },
            ...Object.fromEntries(NOT_YET.map((k) => [k, true])),
          },
        },
      },
      error_policy: { enum: ["fail_fast", "collect"] },
      errors_field: { type: "string" },
    },
  };

  contribute(v: { branches: Record<string, BranchValue>; error_policy?: "fail_fast" | "collect"; errors_field?: string }, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const pending = Object.entries(v.branches).flatMap(([b, spec]) => NOT_YET.filter((k) => k in spec).map((k) => ({ b, k })));
    if (pending.length > 0) {
      throw new FixtureDirectiveUnknown(pending.map(({ b, k }) => ({ name: `parallel_branches.branches.${b}.${k}`, position: "node", location: env.locate([...at, "branches", b, k]) })));
    }
    const branches = Object.fromEntries(
      Object.entries(v.branches).map(([name, b]) => [
        name,
        {
          subgraph: env.subgraph(b.subgraph ?? name, [...at, "branches", name, "subgraph"], node.name),
          ...(b.inputs ? { inputs: b.inputs } : {}),
          ...(b.outputs ? { outputs: b.outputs } : {}),
        },
      ]),
    );
    const kind = parallelBranches<StateRecord>({
      branches,
      ...(v.error_policy ? { errorPolicy: v.error_policy } : {}),
      ...(v.errors_field ? { errorsField: v.errors_field } : {}),
    });
    node.kind = { directive: "parallel_branches", path: at, make: () => kind };
  }
}
