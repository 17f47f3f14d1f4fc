import { directive } from "../../src/conformance/registry.ts";
import { FixtureDirectiveUnknown } from "../../src/conformance/errors.ts";
import { parallelBranches } from "../../src/pipeline/index.ts";
import type { NodeContext, StateRecord } from "../../src/graph/index.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { assembleBody } from "../../harness/graph/build.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { perCall } from "../../harness/pipeline/facets.ts";
import { buildMiddleware, MIDDLEWARE_ENTRY_SCHEMA, type MiddlewareEntry } from "../../harness/pipeline/middleware-factory.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { augmentAtSubgraphTop } from "./caller-metadata.ts";

interface BranchValue {
  subgraph?: string;
  inputs?: Record<string, string>;
  outputs?: Record<string, string>;
  call?: Record<string, unknown>;
  when?: { field: string };
  middleware?: unknown[];
  [other: string]: unknown;
}

/** Branch keys the observability notes define that this adapter does not drive yet. */
const NOT_YET = ["augment_metadata_from_outer_item"];

/** Per call: how many times each callable branch's body ran (for the skip / dispatch claims). */
export const BranchCalls = new Facet<Map<string, number>>("callable branch runs");

/**
 * `parallel_branches:` (conformance-adapter §5.4, pipeline-utilities §11): each named branch runs
 * its declared subgraph concurrently; `outputs` project each branch's fields back into the parent.
 * A branch may instead be `call: {<node directives>}` (§11.1.1, the inline-callable form over the
 * parent state) and may carry `when: {field}` (§11.2: dispatched only when the field is truthy).
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
        description: "branches is a mapping of branch name to {subgraph, inputs?, outputs?} (conformance-adapter §5.4)",
        minProperties: 1,
        additionalProperties: {
          type: "object",
          additionalProperties: false,
          properties: {
            subgraph: { type: "string" },
            inputs: { type: "object", additionalProperties: { type: "string" } },
            outputs: { type: "object", additionalProperties: { type: "string" } },
            call: { type: "object", minProperties: 1 },
            when: { type: "object", required: ["field"], additionalProperties: false, properties: { field: { type: "string" } } },
            middleware: { type: "array", minItems: 1, items: MIDDLEWARE_ENTRY_SCHEMA },
            // Read only through the legacy bundle (directives/legacy/composition-forms.ts), which counts each use.
            augment_metadata: { type: "object", minProperties: 1 },
            ...Object.fromEntries(NOT_YET.map((k) => [k, true])),
          },
          not: { anyOf: [{ required: ["call", "subgraph"] }, { required: ["call", "augment_metadata"] }] },
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
    const pc = pipelineCase((k) => env.slot(k)); // capture branch events for the per-branch claims
    const menv = { call: () => env.currentCall().observation, clock: pc.clock, locate: env.locate, configs: pc.configs };
    // §11.7 branch middleware, built from the same entries as the `middleware:` block.
    const middlewareOf = (name: string, b: BranchValue, path: KeyPath) =>
      b.middleware === undefined
        ? {}
        : {
            middleware: (b.middleware as MiddlewareEntry[]).map((entry, index) =>
              buildMiddleware(entry, { graph: env.graphName, node: `${node.name}.${name}`, scope: "node", index }, menv, [...path, "middleware", index]),
            ),
          };
    // A legacy `augment_metadata` on an entry: at the top of that branch's subgraph body.
    for (const [name, b] of Object.entries(v.branches)) {
      if (b.augment_metadata !== undefined && b.call === undefined) augmentAtSubgraphTop(env, node.name, b.subgraph ?? name, name, b.augment_metadata as Record<string, unknown>);
    }
    const branches = Object.fromEntries(
      Object.entries(v.branches).map(([name, b]) => {
        const path = [...at, "branches", name];
        const when = b.when ? { when: (s: Readonly<StateRecord>) => Boolean(s[(b.when as { field: string }).field]) } : {};
        if (b.call !== undefined) {
          // §11.1.1 inline-callable branch: a function over the parent state returning a
          // parent-shaped update — here, the body the `call:` block's node directives describe.
          const body = assembleBody(name, [...path, "call"], env.resolve("node", b.call, [...path, "call"]), env);
          const call = async (s: Readonly<StateRecord>, ctx: NodeContext) => {
            const runs = perCall(env.currentCall().observation, BranchCalls, () => new Map<string, number>());
            runs.set(name, (runs.get(name) ?? 0) + 1);
            return (await body(s, ctx)) as StateRecord;
          };
          return [name, { call, ...when, ...middlewareOf(name, b, path) }];
        }
        return [
          name,
          {
            subgraph: env.subgraph(b.subgraph ?? name, [...path, "subgraph"], node.name),
            ...(b.inputs ? { inputs: b.inputs } : {}),
            ...(b.outputs ? { outputs: b.outputs } : {}),
            ...when,
            ...middlewareOf(name, b, path),
          },
        ];
      }),
    );
    const kind = parallelBranches<StateRecord>({
      branches,
      ...(v.error_policy ? { errorPolicy: v.error_policy } : {}),
      ...(v.errors_field ? { errorsField: v.errors_field } : {}),
    });
    node.kind = { directive: "parallel_branches", path: at, make: () => kind };
  }
}
