/**
 * LLM providers vs named peers and a floor: one chat completion (OpenAI Chat Completions wire
 * shape) through an injected `fetch` that answers with pre-encoded bytes — the same bytes for
 * every implementation, retries off, no telemetry.
 *
 *   ours       providers.create("openai", { fetch }).complete(messages [, { stream: true }])
 *   AI SDK     `ai` 6 generateText / streamText on `@ai-sdk/openai` 3 `createOpenAI({ fetch }).chat(...)`,
 *              maxRetries 0 (telemetry is off unless `experimental_telemetry` is set)
 *   LangChain  `@langchain/openai` 1.5.8 ChatOpenAI (Chat Completions, `configuration.fetch`,
 *              maxRetries 0) invoke / stream with the chunks concatenated
 *   floor      fetch + JSON.parse (non-streamed); fetch + eventsource-parser + JSON.parse per event,
 *              text concatenated (streamed). No validation, no Response object.
 *
 * Operations: non-streamed; a streamed call answered in 1 content chunk (fixed cost per call); a
 * streamed call answered in 500 content chunks (the per-chunk slope is (t500 − t1) / 499). Every
 * implementation's text is verified equal before timing.
 *
 *   node --import tsx bench/llm.ts [--quick]   → bench/results.llm.json
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, streamText } from "ai";
import { createParser } from "eventsource-parser";
import { providers } from "../src/llm/index.ts";
import { measure } from "./lib/measure.ts";

const quick = process.argv.includes("--quick");
const MODEL = "gpt-4o-mini";
const PROMPT = "Write one short sentence about the sea.";
const URL_ = "https://api.openai.com/v1/chat/completions";
const encoder = new TextEncoder();

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);
const completion = (text: string) =>
  encoder.encode(JSON.stringify({ id: "chatcmpl-b", object: "chat.completion", created: 1733000000, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }], usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 } }));
const chunk = (delta: unknown, finish: string | null) => ({ id: "chatcmpl-b", object: "chat.completion.chunk", created: 1733000000, model: MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
/** One SSE event per network chunk: role, N content deltas, finish, usage, [DONE]. */
const stream = (parts: string[]): Uint8Array[] =>
  [
    chunk({ role: "assistant", content: "" }, null),
    ...parts.map((content) => chunk({ content }, null)),
    chunk({}, "stop"),
    { id: "chatcmpl-b", object: "chat.completion.chunk", created: 1733000000, model: MODEL, choices: [], usage: { prompt_tokens: 12, completion_tokens: parts.length, total_tokens: 12 + parts.length } },
    "[DONE]",
  ].map((e) => encoder.encode(`data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`));

const TEXT = words(40).join("");
const bodies = { complete: completion(TEXT), stream1: stream([TEXT]), stream500: stream(words(500)) };
type Op = keyof typeof bodies;
const expected: Record<Op, string> = { complete: TEXT, stream1: TEXT, stream500: words(500).join("") };

/** The fake server: which canned body answers is set per operation before it is timed. */
let serving: Op = "complete";
const fetch = async (_url: string | URL | Request, _init?: RequestInit): Promise<Response> => {
  const body = bodies[serving];
  if (body instanceof Uint8Array) return new Response(body, { headers: { "content-type": "application/json" } });
  return new Response(
    new ReadableStream<Uint8Array>({
      start(ctl) {
        for (const b of body) ctl.enqueue(b);
        ctl.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
};

const messages = [{ role: "user" as const, content: PROMPT }];
const ours = providers.create("openai", { model: MODEL, apiKey: "sk-bench", fetch });
const aiModel = createOpenAI({ apiKey: "sk-bench", fetch }).chat(MODEL);
const lc = new ChatOpenAI({ model: MODEL, apiKey: "sk-bench", maxRetries: 0, configuration: { fetch } });

type Impl = (streamed: boolean) => Promise<string>;
const impls: Record<string, Impl> = {
  ours: async (streamed) => String((await ours.complete(messages, streamed ? { stream: true } : {})).message.content),
  "AI SDK 6": async (streamed) => {
    if (!streamed) return (await generateText({ model: aiModel, messages, maxRetries: 0 })).text;
    const r = streamText({ model: aiModel, messages, maxRetries: 0 });
    let text = "";
    for await (const t of r.textStream) text += t;
    return text;
  },
  "LangChain.js": async (streamed) => {
    if (!streamed) return String((await lc.invoke(messages)).content);
    let text = "";
    for await (const c of await lc.stream(messages)) text += String(c.content);
    return text;
  },
  floor: async (streamed) => {
    const res = await fetch(URL_, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer sk-bench" }, body: JSON.stringify({ model: MODEL, messages, ...(streamed ? { stream: true } : {}) }) });
    if (!streamed) return (JSON.parse(await res.text()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
    let text = "";
    const parser = createParser({
      onEvent: (e) => {
        if (e.data === "[DONE]") return;
        const delta = (JSON.parse(e.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content;
        if (delta) text += delta;
      },
    });
    const decoder = new TextDecoder();
    for await (const b of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(b, { stream: true }));
    return text;
  },
};

const labels: Record<Op, string> = { complete: "complete(), non-streamed", stream1: "streamed, 1 content chunk", stream500: "streamed, 500 content chunks" };
const rows: Record<string, string | number>[] = [];
const perOp: Record<string, Partial<Record<Op, number>>> = {};
for (const op of ["complete", "stream1", "stream500"] as const) {
  serving = op;
  for (const [name, run] of Object.entries(impls)) {
    const got = await run(op !== "complete");
    if (got !== expected[op]) throw new Error(`${name} ${op}: text differs (${JSON.stringify(got.slice(0, 40))}…)`);
  }
  const samples = quick ? 20 : op === "stream500" ? 60 : 300;
  const t = await measure(Object.fromEntries(Object.entries(impls).map(([name, run]) => [name, () => run(op !== "complete")])), samples);
  for (const [name, us] of Object.entries(t)) (perOp[name] ??= {})[op] = us;
  rows.push({ operation: labels[op], ...Object.fromEntries(Object.entries(t).map(([n, us]) => [`${n} µs`, +us.toFixed(1)])) });
}
const slope = Object.fromEntries(Object.entries(perOp).map(([n, o]) => [n, (o.stream500! - o.stream1!) / 499]));
rows.push({ operation: "per streamed chunk (slope 1 → 500)", ...Object.fromEntries(Object.entries(slope).map(([n, us]) => [`${n} µs`, +us.toFixed(2)])) });
const ratios = Object.fromEntries(
  Object.keys(impls)
    .filter((n) => n !== "floor")
    .map((n) => [n, { complete: +(perOp[n]!.complete! / perOp["floor"]!.complete!).toFixed(2), stream1: +(perOp[n]!.stream1! / perOp["floor"]!.stream1!).toFixed(2), perChunk: +(slope[n]! / slope["floor"]!).toFixed(2) }]),
);
console.table(rows);
console.log("ratios to the floor:", ratios);
const out = fileURLToPath(new URL("./results.llm.json", import.meta.url));
if (!quick) writeFileSync(out, JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, versions: { ai: "6.0.325", "@ai-sdk/openai": "3.0.141", "@langchain/openai": "1.5.8", "@langchain/core": "1.4.0" }, rows, ratios }, null, 2) + "\n");
