/**
 * The provider call a wire-request assertion (conformance-adapter §5.16) reads: the mapping and
 * every request the mock `fetch` captured. llm-provider cases record it as their `LlmCall`;
 * retrieval-provider cases record a {@link WireCallFacet}.
 */
import type { CheckContext } from "../src/conformance/directive.ts";
import { Facet, type Observation } from "../src/conformance/observation.ts";
import type { WireCapture } from "./llm/facets.ts";
import { wiredCall } from "./llm/reading.ts";

export interface WireCall {
  /** `complete` / `ready` (llm-provider), `embed` / `rerank` (retrieval-provider). */
  readonly operation: string;
  readonly mapping: string;
  readonly requests: ReadonlyArray<WireCapture>;
}

export const WireCallFacet = new Facet<WireCall>("provider wire requests");

export function wireCall(obs: Observation, ctx: CheckContext): WireCall {
  return obs.tryGet(WireCallFacet) ?? wiredCall(obs, ctx);
}
