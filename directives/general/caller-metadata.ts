import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { setInvocationMetadata, getInvocationMetadata } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { perCall } from "../../harness/pipeline/facets.ts";
import { callerMetadata, MetadataReads } from "../../harness/observability/metadata.ts";

/**
 * `caller_metadata: {<key>: <value>, ...}` (observability §3.4): the mapping the caller passes to
 * `invoke({ metadata })` for the call (case level) or for one invocation.
 */
@directive({ name: "caller_metadata", at: ["case", "invocation"], home: "general", summary: "invocation metadata the caller supplies" })
export class CallerMetadata {
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    callerMetadata(ctx).set(ctx.plan, value);
  }
}

/** `augment_metadata: {<key>: <value>}` (conformance-adapter §5.1; observability §3.4): the node calls `setInvocationMetadata`. */
@directive({ name: "augment_metadata", at: "node", home: "general", summary: "node calls setInvocationMetadata with these entries" })
export class AugmentMetadata {
  readonly schema = { type: "object", minProperties: 1 };
  contribute(value: Record<string, unknown>, node: NodeAssembly): void {
    node.steps.push(() => setInvocationMetadata(value));
  }
}

/** `augment_metadata_from_field: {<key>: <state field>}` (§5.1; observability §3.4): each key set to the field's value. */
@directive({ name: "augment_metadata_from_field", at: "node", home: "general", summary: "node sets metadata keys from state fields" })
export class AugmentMetadataFromField {
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "string" } };
  contribute(value: Record<string, string>, node: NodeAssembly): void {
    node.steps.push((s) => setInvocationMetadata(Object.fromEntries(Object.entries(value).map(([k, f]) => [k, s[f]]))));
  }
}

/**
 * `capture_invocation_metadata_into: <state field>` (§5.1; observability §3.4): the node reads
 * `getInvocationMetadata()` and writes the snapshot into the field (and records the read).
 */
@directive({ name: "capture_invocation_metadata_into", at: "node", home: "general", summary: "node writes getInvocationMetadata() into a field" })
export class CaptureInvocationMetadataInto {
  readonly schema = { type: "string", minLength: 1 };
  contribute(value: string, node: NodeAssembly, env: BuildEnv): void {
    node.steps.push(() => {
      const snapshot = getInvocationMetadata();
      perCall(env.currentCall().observation, MetadataReads, () => []).push({ node: node.name, snapshot });
      return { [value]: { ...snapshot } };
    });
  }
}
