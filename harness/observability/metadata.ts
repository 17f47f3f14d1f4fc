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
import { GraphCaseHooksSlot } from "../graph/extensions.ts";

const CALLER_METADATA = "caller_metadata";

/** One `get_invocation_metadata()` read a node made. */
export interface MetadataRead {
  readonly node: string;
  readonly snapshot: Readonly<Record<string, unknown>>;
}
export const MetadataReads = new Facet<MetadataRead[]>("invocation metadata reads");

class CallerMetadata {
  #installed = false;
  install(ctx: ConfigureContext): this {
    if (this.#installed) return this;
    this.#installed = true;
    ctx.slot(GraphCaseHooksSlot).invokeOptions.push(({ plan }) => {
      const metadata = plan.input<Readonly<Record<string, unknown>>>(CALLER_METADATA);
      return metadata !== undefined ? { metadata } : {};
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
