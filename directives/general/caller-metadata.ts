import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { setInvocationMetadata, getInvocationMetadata } from "../../src/graph/index.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { perCall } from "../../harness/pipeline/facets.ts";
import { callerMetadata, metadataSite, MetadataReads, MetadataWrites } from "../../harness/observability/metadata.ts";

/** Set `entries` and record the write (with its site) on the call. */
function augment(env: BuildEnv, node: string, entries: Record<string, unknown>): void {
  setInvocationMetadata(entries);
  perCall(env.currentCall().observation, MetadataWrites, () => []).push({ ...metadataSite(node), entries });
}

/**
 * `set_invocation_metadata(entries)` at the top of the body of `subgraph` when the composite node
 * `composite` runs it as one branch (`branch`) or as any fan-out instance (`branch` undefined): the
 * legacy `augment_metadata` written on a composite's entry. It must run inside the child run's own
 * metadata context (observability §3.4 per-async-context scoping), which only the child's nodes
 * see, so it is a node middleware on the subgraph's entry node that fires for that lineage only.
 * Call it before the subgraph is first built.
 */
export function augmentAtSubgraphTop(env: BuildEnv, composite: string, subgraph: string, branch: string | undefined, entries: Record<string, unknown>): void {
  const decl = env.caseSpec.subgraphs.get(subgraph) ?? env.slot(GraphCaseHooksSlot).extraSubgraphs.get(subgraph);
  const entry = decl?.body["entry"];
  if (typeof entry !== "string") return; // no such subgraph / no entry: building it reports that
  const key = `${subgraph}/${entry}`;
  const hooks = env.slot(GraphCaseHooksSlot);
  const list = hooks.nodeMiddleware.get(key) ?? [];
  list.unshift((state, next, ctx) => {
    const mine = ctx.namespace.at(-2) === composite && (branch !== undefined ? ctx.branchNameChain.at(-1) === branch : ctx.fanOutIndexChain.at(-1) != null);
    if (mine) augment(env, ctx.nodeName, entries);
    return next(state);
  });
  hooks.nodeMiddleware.set(key, list);
}

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
  contribute(value: Record<string, unknown>, node: NodeAssembly, env: BuildEnv): void {
    node.steps.push(() => augment(env, node.name, value));
  }
}

/** `augment_metadata_from_field: {<key>: <state field>}` (§5.1; observability §3.4): each key set to the field's value. */
@directive({ name: "augment_metadata_from_field", at: "node", home: "general", summary: "node sets metadata keys from state fields" })
export class AugmentMetadataFromField {
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "string" } };
  contribute(value: Record<string, string>, node: NodeAssembly, env: BuildEnv): void {
    node.steps.push((s) => augment(env, node.name, Object.fromEntries(Object.entries(value).map(([k, f]) => [k, s[f]]))));
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
      perCall(env.currentCall().observation, MetadataReads, () => []).push({ ...metadataSite(node.name), snapshot });
      return { [value]: { ...snapshot } };
    });
  }
}
