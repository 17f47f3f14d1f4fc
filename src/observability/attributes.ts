/**
 * The attribute namespace (observability §5): normative keys, the runtime-identity constants of
 * §5.1, and the cross-cutting set of §5.6 (correlation id, session id, `openarmature.user.*`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Attributes } from "@opentelemetry/api";
import type { InvocationMetadata } from "../graph/index.ts";
import { PACKAGE_ROOT } from "../conformance/package-root.ts";

interface PackageMeta {
  readonly version: string;
  readonly openarmature: { readonly specVersion: string };
}

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as PackageMeta;

/** §5.1 runtime identity: constant for this implementation. */
export const IMPLEMENTATION_NAME = "openarmature-typescript";
export const IMPLEMENTATION_VERSION: string = pkg.version;
export const SPEC_VERSION: string = pkg.openarmature.specVersion;

/** §4.5 constant span name of every invocation span (detached roots included). */
export const INVOCATION_SPAN_NAME = "openarmature.invocation";

export const Attr = {
  invocationId: "openarmature.invocation_id",
  entryNode: "openarmature.graph.entry_node",
  specVersion: "openarmature.graph.spec_version",
  implementationName: "openarmature.implementation.name",
  implementationVersion: "openarmature.implementation.version",
  correlationId: "openarmature.correlation_id",
  sessionId: "openarmature.session_id",
  userPrefix: "openarmature.user.",
  nodeName: "openarmature.node.name",
  namespace: "openarmature.node.namespace",
  step: "openarmature.node.step",
  attemptIndex: "openarmature.node.attempt_index",
  fanOutIndex: "openarmature.node.fan_out_index",
  branchName: "openarmature.node.branch_name",
  errorCategory: "openarmature.error.category",
  subgraphName: "openarmature.subgraph.name",
  fanOutItemCount: "openarmature.fan_out.item_count",
  fanOutConcurrency: "openarmature.fan_out.concurrency",
  fanOutErrorPolicy: "openarmature.fan_out.error_policy",
  fanOutParentNodeName: "openarmature.fan_out.parent_node_name",
  branchCount: "openarmature.parallel_branches.branch_count",
  branchesErrorPolicy: "openarmature.parallel_branches.error_policy",
  branchesParentNodeName: "openarmature.parallel_branches.parent_node_name",
  outcome: "openarmature.outcome",
  signalId: "openarmature.suspension.signal_id",
  suspensionMetadataPrefix: "openarmature.suspension.metadata.",
} as const;

/** §5.1 attributes of an invocation span (every one, detached roots included). */
export function invocationAttributes(invocationId: string, entryNode: string): Attributes {
  return {
    [Attr.invocationId]: invocationId,
    [Attr.entryNode]: entryNode,
    [Attr.specVersion]: SPEC_VERSION,
    [Attr.implementationName]: IMPLEMENTATION_NAME,
    [Attr.implementationVersion]: IMPLEMENTATION_VERSION,
  };
}

/** §5.6 / §7 cross-cutting attributes: correlation id, session id, one `openarmature.user.<key>` per entry. */
export function crossCuttingAttributes(correlationId: string, sessionId: string | undefined, metadata: InvocationMetadata): Attributes {
  const out: Attributes = { [Attr.correlationId]: correlationId };
  if (sessionId !== undefined) out[Attr.sessionId] = sessionId;
  for (const [k, v] of Object.entries(metadata)) out[Attr.userPrefix + k] = v as Attributes[string];
  return out;
}

/** `openarmature.user.<key>` for each entry. */
export function userAttributes(metadata: InvocationMetadata): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(metadata)) out[Attr.userPrefix + k] = v as Attributes[string];
  return out;
}

/**
 * §5.8: a suspension descriptor's metadata flattened under `openarmature.suspension.metadata.`.
 * Nested objects flatten with dotted keys; a value that is not an OTel scalar or homogeneous
 * scalar array (null, a mixed array, an array of objects) is stringified as JSON.
 */
export function flattenSuspensionMetadata(metadata: unknown, prefix: string = Attr.suspensionMetadataPrefix): Attributes {
  const out: Attributes = {};
  if (typeof metadata !== "object" || metadata === null) return out;
  for (const [k, v] of Object.entries(metadata as Record<string, unknown>)) {
    const key = prefix + k;
    if (typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) out[key] = v;
    else if (Array.isArray(v) && v.length > 0 && new Set(v.map((x) => typeof x)).size === 1 && ["string", "number", "boolean"].includes(typeof v[0])) {
      out[key] = v as Attributes[string];
    } else if (typeof v === "object" && v !== null && !Array.isArray(v)) Object.assign(out, flattenSuspensionMetadata(v, `${key}.`));
    else out[key] = JSON.stringify(v) ?? String(v);
  }
  return out;
}
