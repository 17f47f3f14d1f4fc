import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { suspend } from "../../src/suspension/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { persistenceCaseAtBuild } from "../../harness/suspension/case.ts";

/** The descriptor mapping the suspension directives take (suspension §4, in the spec's field names). */
export const DESCRIPTOR_SCHEMA = {
  type: "object",
  required: ["signal_id"],
  additionalProperties: false,
  properties: { signal_id: { type: "string", minLength: 1 }, metadata: { type: "object" }, mark_node_completed: { type: "boolean" } },
} as const;

export interface DescriptorValue {
  readonly signal_id: string;
  readonly metadata?: Record<string, unknown>;
  readonly mark_node_completed?: boolean;
}

/** Call the library's real `suspend()` with the written descriptor. */
export function suspendWith(value: DescriptorValue): never {
  return suspend(
    value.metadata === undefined ? { signalId: value.signal_id } : { signalId: value.signal_id, metadata: value.metadata },
    { markNodeCompleted: value.mark_node_completed ?? true },
  );
}

/**
 * `suspend_with_descriptor: {signal_id, metadata?}` (conformance-adapter §5.1, §6.5): the node body
 * calls the implementation's real `suspend(descriptor)` (suspension §3) — `mark_node_completed`
 * defaults to true. The case's calls then go through `withSuspension()`, which persists the pause.
 */
@directive({ name: "suspend_with_descriptor", at: "node", home: "general", summary: "the node body calls suspend(descriptor)" })
export class SuspendWithDescriptor {
  readonly schema = DESCRIPTOR_SCHEMA;
  contribute(value: DescriptorValue, node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    persistenceCaseAtBuild(env).suspension = true;
    node.steps.push(() => suspendWith(value));
  }
}
