/** What the retrieval-provider harness records per provider call, for the named claims to read. */
import { Facet } from "../../src/conformance/observation.ts";
import type { EmbeddingResponse, RerankResponse } from "../../src/retrieval/index.ts";
import type { WireCapture } from "../llm/facets.ts";

export interface RetrievalCall {
  readonly operation: "embed" | "rerank";
  /** The case's `mapping:` (`stand-in` when absent). */
  readonly mapping: string;
  readonly node: string;
  /** The `calls_embed` / `calls_rerank` value as written. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The construction block's fields as written (`{}` for the stand-in). */
  readonly construction: Readonly<Record<string, unknown>>;
  readonly response: EmbeddingResponse | RerankResponse | undefined;
  readonly error: unknown;
  /** The requests this call sent, in order. */
  readonly requests: ReadonlyArray<WireCapture>;
  /** The mock bodies served to this call, in order. */
  readonly served: ReadonlyArray<unknown>;
}

/** Every provider call of the invocation, in order. */
export const RetrievalCallsFacet = new Facet<RetrievalCall[]>("retrieval provider calls");
