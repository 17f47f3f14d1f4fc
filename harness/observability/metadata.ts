/**
 * Caller-supplied invocation metadata (observability §3.4) in graph cases: `caller_metadata` is a
 * plan input passed to `invoke({ metadata })`, and the node directives that write and read it
 * (`augment_metadata`, `augment_metadata_from_field`, `capture_invocation_metadata_into`) call the
 * library's real `setInvocationMetadata` / `getInvocationMetadata`. Each read is also recorded as
 * a {@link MetadataReads} facet (the snapshot object itself, for the immutability claim).
 */
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { currentNodeContext } from "../../src/graph/index.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";

const CALLER_METADATA = "caller_metadata";

/** Where in the invocation a node read or wrote metadata (the §6 event-source identity). */
export interface MetadataSite {
  readonly node: string;
  readonly namespace: readonly string[];
  readonly step: number;
  readonly attemptIndex: number;
  readonly fanOutIndexChain: readonly (number | null)[];
  readonly branchNameChain: readonly (string | null)[];
}

/** One `get_invocation_metadata()` read a node made. */
export interface MetadataRead extends Partial<MetadataSite> {
  readonly node: string;
  readonly snapshot: Readonly<Record<string, unknown>>;
}
export const MetadataReads = new Facet<MetadataRead[]>("invocation metadata reads");

/** One `set_invocation_metadata()` write a node made. */
export interface MetadataWrite extends MetadataSite {
  readonly entries: Readonly<Record<string, unknown>>;
}
export const MetadataWrites = new Facet<MetadataWrite[]>("invocation metadata writes");

/** The metadata the caller passed to `invoke()` for the call (`{}` when none). */
export const CallerBaseline = new Facet<Readonly<Record<string, unknown>>>("caller metadata baseline");

/** The running node's site, for a read / write record. */
export function metadataSite(node: string): MetadataSite {
  const c = currentNodeContext();
  if (!c) return { node, namespace: [node], step: -1, attemptIndex: 0, fanOutIndexChain: [], branchNameChain: [] };
  return { node, namespace: c.namespace, step: c.step ?? -1, attemptIndex: c.attemptIndex, fanOutIndexChain: c.fanOutIndexChain, branchNameChain: c.branchNameChain };
}

class CallerMetadata {
  #installed = false;
  install(ctx: ConfigureContext): this {
    if (this.#installed) return this;
    this.#installed = true;
    const hooks = ctx.slot(GraphCaseHooksSlot);
    hooks.invocationDefaults.add(CALLER_METADATA);
    hooks.invokeOptions.push(({ plan }) => {
      const metadata = plan.input<Readonly<Record<string, unknown>>>(CALLER_METADATA);
      return metadata !== undefined ? { metadata } : {};
    });
    hooks.beforeCall.push(({ plan, observation }) => {
      observation.set(CallerBaseline, plan.input<Readonly<Record<string, unknown>>>(CALLER_METADATA) ?? {});
    });
    return this;
  }
  set(plan: InvocationPlan, metadata: Readonly<Record<string, unknown>>): void {
    plan.setInput(CALLER_METADATA, metadata);
  }
}

const CallerMetadataSlot = new SlotKey<CallerMetadata>("caller metadata", () => new CallerMetadata());

export function callerMetadata(ctx: ConfigureContext): CallerMetadata {
  return ctx.slot(CallerMetadataSlot).install(ctx);
}
