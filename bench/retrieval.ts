/**
 * Retrieval providers vs a floor: embed 1,000 texts in batches of 100 (OpenAI-compatible mapping,
 * 10 requests) and rerank 100 documents (Cohere mapping, 1 request), each through an injected
 * `fetch` that answers with pre-serialized response bytes. The floor does the same requests with
 * the same `fetch` and only `JSON.stringify` + `JSON.parse` + picking the vectors / sorting the
 * results — no validation, no invariants, no managed fields. The embedding row also runs LangChain.js
 * `OpenAIEmbeddings` (`@langchain/openai` 1.5.8) through the same `fetch`. Results are verified equal.
 *
 *   node --import tsx bench/retrieval.ts [--quick]   → bench/results.retrieval.json
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { OpenAIEmbeddings } from "@langchain/openai";
import { embeddingProviders, rerankProviders } from "../src/retrieval/index.ts";
import { measure } from "./lib/measure.ts";

const quick = process.argv.includes("--quick");
const TEXTS = Array.from({ length: 1_000 }, (_, i) => `document number ${i} about a topic worth embedding`);
const DOCS = TEXTS.slice(0, 100);
const DIMS = 256;
const BATCH = 100;

const vector = (i: number): number[] => Array.from({ length: DIMS }, (_, k) => ((i * 31 + k) % 997) / 997);
/** Pre-serialized embedding responses per batch start, and the rerank response. */
const embedBodies = new Map<number, string>();
for (let start = 0; start < TEXTS.length; start += BATCH) {
  embedBodies.set(start, JSON.stringify({ object: "list", model: "text-embedding-3-small", data: TEXTS.slice(start, start + BATCH).map((_, j) => ({ object: "embedding", index: j, embedding: vector(start + j) })), usage: { prompt_tokens: 900, total_tokens: 900 } }));
}
const rerankBody = JSON.stringify({ id: "r", results: DOCS.map((_, i) => ({ index: i, relevance_score: ((i * 7919) % 100) / 100 })), meta: { billed_units: { search_units: 1 } } });

/** The fake server: the batch is found from the request body's first input. */
const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const body = JSON.parse(init!.body as string) as { input?: string[] };
  const text = String(url).endsWith("/v2/rerank") ? rerankBody : embedBodies.get(TEXTS.indexOf(body.input![0]!))!;
  return new Response(text, { headers: { "content-type": "application/json" } });
};

const embedder = embeddingProviders.create("openai", { model: "text-embedding-3-small", apiKey: "k", fetch, chunkSize: BATCH });
const reranker = rerankProviders.create("cohere", { model: "rerank-v3.5", apiKey: "k", fetch });

// LangChain's OpenAIEmbeddings (through the `openai` SDK) with the same fetch, batch size and bytes:
// encodingFormat "float" so the server answers with the same JSON floats (left unset, the SDK asks
// for base64 and decodes it).
const lc = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "k", batchSize: BATCH, maxRetries: 0, encodingFormat: "float", configuration: { fetch } });
const langchainEmbed = () => lc.embedDocuments(TEXTS);

const ours = {
  embed: async () => (await embedder.embed(TEXTS)).vectors,
  rerank: async () => (await reranker.rerank("which topic?", DOCS)).results.map((r) => r.index),
};
const floor = {
  embed: async () => {
    const out: number[][] = [];
    for (let start = 0; start < TEXTS.length; start += BATCH) {
      const res = await fetch("https://api.openai.com/v1/embeddings", { method: "POST", body: JSON.stringify({ model: "text-embedding-3-small", input: TEXTS.slice(start, start + BATCH) }) });
      const json = JSON.parse(await res.text()) as { data: { embedding: number[] }[] };
      for (const d of json.data) out.push(d.embedding);
    }
    return out;
  },
  rerank: async () => {
    const res = await fetch("https://api.cohere.com/v2/rerank", { method: "POST", body: JSON.stringify({ model: "rerank-v3.5", query: "which topic?", documents: DOCS }) });
    const json = JSON.parse(await res.text()) as { results: { index: number; relevance_score: number }[] };
    return json.results.sort((a, b) => b.relevance_score - a.relevance_score).map((r) => r.index);
  },
};

const rows = [];
for (const op of ["embed", "rerank"] as const) {
  const impls: Record<string, () => Promise<unknown>> = { ours: ours[op], floor: floor[op], ...(op === "embed" ? { "LangChain.js": langchainEmbed } : {}) };
  for (const [name, run] of Object.entries(impls)) if (!isDeepStrictEqual(await run(), await floor[op]())) throw new Error(`${op}: ${name} and the floor disagree`);
  const t = await measure(impls, quick ? 30 : op === "embed" ? 200 : 1000);
  rows.push({
    operation: op === "embed" ? "embed 1,000 texts, batches of 100 (OpenAI mapping)" : "rerank 100 documents (Cohere mapping)",
    ours_us: +t["ours"]!.toFixed(1),
    floor_us: +t["floor"]!.toFixed(1),
    ratio: +(t["ours"]! / t["floor"]!).toFixed(2),
    ...(t["LangChain.js"] !== undefined ? { langchain_us: +t["LangChain.js"].toFixed(1), langchain_ratio: +(t["LangChain.js"] / t["floor"]!).toFixed(2), ours_vs_langchain: +(t["ours"]! / t["LangChain.js"]).toFixed(2) } : {}),
  });
}
console.table(rows);
const out = fileURLToPath(new URL("./results.retrieval.json", import.meta.url));
if (!quick) writeFileSync(out, JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, rows }, null, 2) + "\n");
