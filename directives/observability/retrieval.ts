/**
 * The retrieval call / mock vocabulary at observability's positions (conformance-adapter §5.15;
 * observability 074-083 and 099-108 reuse retrieval-provider 001's / 006's directives unchanged):
 * the same classes as the retrieval-provider bundle, registered for this directory too — one
 * implementation, two homes.
 */
import { directive } from "../../src/conformance/registry.ts";
import { CallsEmbed, CallsRerank, MockEmbedding, MockRerank } from "../retrieval-provider/case.ts";

const HOME = "observability";

directive({ name: "mock_embedding", at: "case", home: HOME, summary: "the embedding mock's responses, one per request" })(MockEmbedding);
directive({ name: "mock_rerank", at: "case", home: HOME, summary: "the rerank mock's responses, one per request" })(MockRerank);
directive({ name: "calls_embed", at: "node", home: HOME, summary: "call the bound EmbeddingProvider.embed()" })(CallsEmbed);
directive({ name: "calls_rerank", at: "node", home: HOME, summary: "call the bound RerankProvider.rerank()" })(CallsRerank);
