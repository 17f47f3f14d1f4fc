/**
 * LLM providers vs named peers and a floor: one completion through an injected `fetch` that answers
 * with pre-encoded bytes — the same bytes for every implementation, retries off, no telemetry.
 *
 * OpenAI Chat Completions wire shape, four implementations:
 *   ours       providers.create("openai", { fetch }).complete(messages [, { stream: true }])
 *   AI SDK     `ai` 6 generateText / streamText on `@ai-sdk/openai` 3 `createOpenAI({ fetch }).chat(...)`,
 *              maxRetries 0 (telemetry is off unless `experimental_telemetry` is set)
 *   LangChain  `@langchain/openai` 1.5.8 ChatOpenAI (Chat Completions, `configuration.fetch`,
 *              maxRetries 0) invoke / stream with the chunks concatenated
 *   floor      fetch + JSON.parse (non-streamed); fetch + eventsource-parser + JSON.parse per event,
 *              text (or tool arguments) concatenated (streamed). No validation, no Response object.
 * Anthropic Messages and Gemini wire shapes: ours and the floor (the peers' adapters for those
 * APIs are other packages, not installed here).
 *
 * Operations: non-streamed; streamed as 1, 50, 500 and 5,000 content chunks (one SSE event per
 * network chunk; the per-chunk cost is the slope between counts, and must not grow with the count);
 * the 5,000 events delivered in one network chunk (a queue that is drained per event must not
 * make this quadratic); a streamed tool call whose arguments arrive in 20 deltas (OpenAI and
 * Anthropic; Gemini streams whole calls). Every implementation's result is verified equal before timing.
 *
 * Each cell is measured both on the wall clock and in process CPU time (the `CPU` columns): on a
 * shared machine long units (the 500- and 5,000-chunk streams) are preempted in most samples, which
 * inflates their wall-clock median — and so the per-chunk slope above a few hundred chunks — for
 * every implementation alike; CPU time does not move with the machine's load.
 *
 *   node --import tsx bench/llm.ts [--quick] [--no-peers] [--shape openai|anthropic|gemini]
 *     → bench/results.llm.json (full runs only: not --quick, --no-peers or --shape)
 */
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { createOpenAI } from "@ai-sdk/openai";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { createParser } from "eventsource-parser";
import { canonicalJson, providers, type CompleteOptions, type Provider } from "../src/llm/index.ts";
import { measureCost } from "./lib/measure.ts";

const quick = process.argv.includes("--quick");
/** `--no-peers`: ours and the floor only (the AI SDK / LangChain.js columns are left out). */
const noPeers = process.argv.includes("--no-peers");
const shapeArg = process.argv.indexOf("--shape");
const onlyShape = shapeArg >= 0 ? process.argv[shapeArg + 1] : undefined;
const encoder = new TextEncoder();
const PROMPT = "Write about the sea.";
const messages = [{ role: "user" as const, content: PROMPT }];
const weatherSchema = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] };
const weather = { name: "get_weather", description: "Weather for a city.", parameters: weatherSchema };
const ARGS = { city: "Paris, the capital of France, on the river Seine", days: 3 };
/** The arguments' JSON text cut into 20 pieces. */
const argDeltas = (() => {
  const text = JSON.stringify(ARGS);
  const size = Math.ceil(text.length / 20);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
})();
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);
const sse = (events: unknown[], named = false) =>
  events.map((e) => encoder.encode(`${named && typeof e === "object" && e !== null && "type" in e ? `event: ${String(e.type)}\n` : ""}data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`));

type Body = Uint8Array | Uint8Array[];
interface Shape {
  readonly provider: string;
  readonly model: string;
  readonly options: CompleteOptions;
  complete(text: string): Body;
  stream(parts: string[]): Body;
  toolStream?(deltas: string[]): Body;
  /** The floor's reading of one streamed event: text, or tool-argument text. */
  floorEvent(data: string, out: { text: string; args: string }): void;
  floorComplete(json: unknown): string;
  url: string;
}

const oaChunk = (delta: unknown, finish: string | null = null) => ({ id: "chatcmpl-b", object: "chat.completion.chunk", created: 1733000000, model: "gpt-4o-mini", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const oaUsage = (n: number) => ({ id: "chatcmpl-b", object: "chat.completion.chunk", created: 1733000000, model: "gpt-4o-mini", choices: [], usage: { prompt_tokens: 12, completion_tokens: n, total_tokens: 12 + n } });
const openai: Shape = {
  provider: "openai",
  model: "gpt-4o-mini",
  options: {},
  url: "https://api.openai.com/v1/chat/completions",
  complete: (text) => encoder.encode(JSON.stringify({ id: "chatcmpl-b", object: "chat.completion", created: 1733000000, model: "gpt-4o-mini", choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }], usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 } })),
  stream: (parts) => sse([oaChunk({ role: "assistant", content: "" }), ...parts.map((content) => oaChunk({ content })), oaChunk({}, "stop"), oaUsage(parts.length), "[DONE]"]),
  toolStream: (deltas) =>
    sse([
      oaChunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_b1", type: "function", function: { name: "get_weather", arguments: "" } }] }),
      ...deltas.map((a) => oaChunk({ tool_calls: [{ index: 0, function: { arguments: a } }] })),
      oaChunk({}, "tool_calls"),
      oaUsage(deltas.length),
      "[DONE]",
    ]),
  floorEvent: (data, out) => {
    if (data === "[DONE]") return;
    const delta = (JSON.parse(data) as { choices: { delta: { content?: string; tool_calls?: { function: { arguments?: string } }[] } }[] }).choices[0]?.delta;
    if (delta?.content) out.text += delta.content;
    const a = delta?.tool_calls?.[0]?.function.arguments;
    if (a) out.args += a;
  },
  floorComplete: (json) => (json as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
};

const aStart = { type: "message_start", message: { id: "msg_b", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } };
const aEnd = (stop: string, n: number) => [{ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: n } }, { type: "message_stop" }];
const anthropic: Shape = {
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  options: { config: { max_tokens: 1024 } },
  url: "https://api.anthropic.com/v1/messages",
  complete: (text) => encoder.encode(JSON.stringify({ id: "msg_b", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 12, output_tokens: 40 } })),
  stream: (parts) =>
    sse([aStart, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, ...parts.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })), { type: "content_block_stop", index: 0 }, ...aEnd("end_turn", parts.length)], true),
  toolStream: (deltas) =>
    sse(
      [
        aStart,
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_b1", name: "get_weather", input: {} } },
        ...deltas.map((partial_json) => ({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } })),
        { type: "content_block_stop", index: 0 },
        ...aEnd("tool_use", deltas.length),
      ],
      true,
    ),
  floorEvent: (data, out) => {
    const e = JSON.parse(data) as { type: string; delta?: { type: string; text?: string; partial_json?: string } };
    if (e.type !== "content_block_delta") return;
    if (e.delta?.type === "text_delta") out.text += e.delta.text;
    else if (e.delta?.type === "input_json_delta") out.args += e.delta.partial_json;
  },
  floorComplete: (json) => (json as { content: { text: string }[] }).content[0]!.text,
};

const gChunk = (parts: unknown[], finish?: string) => ({ candidates: [{ content: { role: "model", parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }], ...(finish ? { usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 40, totalTokenCount: 52 } } : {}), modelVersion: "gemini-2.5-flash" });
const gemini: Shape = {
  provider: "gemini",
  model: "gemini-2.5-flash",
  options: {},
  url: "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
  complete: (text) => encoder.encode(JSON.stringify(gChunk([{ text }], "STOP"))),
  stream: (parts) => sse([...parts.map((text) => gChunk([{ text }])), gChunk([], "STOP")]),
  floorEvent: (data, out) => {
    for (const p of (JSON.parse(data) as { candidates: { content: { parts: { text?: string }[] } }[] }).candidates[0]!.content.parts) if (p.text) out.text += p.text;
  },
  floorComplete: (json) => (json as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0]!.content.parts[0]!.text,
};

/** The fake server: which canned body answers is set before each operation is verified and timed. */
let serving: Body = new Uint8Array();
const fetch = async (_url: string | URL | Request, _init?: RequestInit): Promise<Response> => {
  const body = serving;
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

type Kind = "complete" | "stream" | "tool";
type Impl = (kind: Kind) => Promise<string>;

function ours(shape: Shape): Impl {
  const p: Provider = providers.create(shape.provider, { model: shape.model, apiKey: "sk-bench", fetch, capabilities: { streaming: true } });
  return async (kind) => {
    const r = await p.complete(messages, { ...shape.options, ...(kind !== "complete" ? { stream: true } : {}), ...(kind === "tool" ? { tools: [weather] } : {}) });
    return kind === "tool" ? canonicalJson(r.message.tool_calls![0]!.arguments) : String(r.message.content);
  };
}

function floor(shape: Shape): Impl {
  return async (kind) => {
    const res = await fetch(shape.url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer sk-bench" }, body: JSON.stringify({ model: shape.model, messages, ...(kind !== "complete" ? { stream: true } : {}) }) });
    if (kind === "complete") return shape.floorComplete(JSON.parse(await res.text()));
    const out = { text: "", args: "" };
    const parser = createParser({ onEvent: (e) => shape.floorEvent(e.data, out) });
    const decoder = new TextDecoder();
    for await (const b of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(b, { stream: true }));
    return kind === "tool" ? canonicalJson(JSON.parse(out.args)) : out.text;
  };
}

const aiModel = createOpenAI({ apiKey: "sk-bench", fetch }).chat("gpt-4o-mini");
const aiTools = { get_weather: tool({ description: weather.description, inputSchema: jsonSchema<{ city: string; days?: number }>(weatherSchema as Parameters<typeof jsonSchema>[0]) }) };
const aiSdk: Impl = async (kind) => {
  if (kind === "complete") return (await generateText({ model: aiModel, messages, maxRetries: 0 })).text;
  if (kind === "tool") {
    const r = streamText({ model: aiModel, messages, maxRetries: 0, tools: aiTools });
    return canonicalJson((await r.toolCalls)[0]!.input);
  }
  const r = streamText({ model: aiModel, messages, maxRetries: 0 });
  let text = "";
  for await (const t of r.textStream) text += t;
  return text;
};

const lc = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-bench", maxRetries: 0, configuration: { fetch } });
const lcTools = lc.bindTools([{ type: "function", function: weather }]);
const langchain: Impl = async (kind) => {
  if (kind === "complete") return String((await lc.invoke(messages)).content);
  if (kind === "tool") {
    let all: AIMessageChunk | undefined;
    for await (const c of await lcTools.stream(messages)) all = all === undefined ? c : all.concat(c);
    return canonicalJson(all!.tool_calls![0]!.args);
  }
  let text = "";
  for await (const c of await lc.stream(messages)) text += String(c.content);
  return text;
};

const COUNTS = [1, 50, 500, 5000] as const;
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};
const TEXT = words(40).join("");
interface Op {
  readonly label: string;
  readonly kind: Kind;
  readonly body: (s: Shape) => Body | undefined;
  readonly expected: string;
  readonly samples: number;
}
const ops: Op[] = [
  { label: "complete(), non-streamed", kind: "complete", body: (s) => s.complete(TEXT), expected: TEXT, samples: 300 },
  ...COUNTS.map((n): Op => ({ label: `streamed, ${n.toLocaleString("en")} content chunk${n === 1 ? "" : "s"}`, kind: "stream", body: (s) => s.stream(n === 1 ? [TEXT] : words(n)), expected: n === 1 ? TEXT : words(n).join(""), samples: n >= 5000 ? 6 : n >= 500 ? 40 : 200 })),
  { label: "streamed, 5,000 content events in one network chunk", kind: "stream", body: (s) => [concat(s.stream(words(5000)) as Uint8Array[])], expected: words(5000).join(""), samples: 6 },
  { label: "streamed tool call, arguments in 20 deltas", kind: "tool", body: (s) => s.toolStream?.(argDeltas), expected: canonicalJson(ARGS), samples: 300 },
];

const results: { shape: string; operation: string; [impl: string]: string | number }[] = [];
const per: Record<string, Record<string, Record<string, number>>> = {};
const perCpu: Record<string, Record<string, Record<string, number>>> = {};
const shapes = [openai, anthropic, gemini].filter((x) => onlyShape === undefined || x.provider === onlyShape);
if (shapes.length === 0) throw new Error(`--shape: no shape '${onlyShape}' (openai, anthropic, gemini)`);
for (const shape of shapes) {
  const impls: Record<string, Impl> = shape === openai && !noPeers ? { ours: ours(shape), "AI SDK 6": aiSdk, "LangChain.js": langchain, floor: floor(shape) } : { ours: ours(shape), floor: floor(shape) };
  for (const op of ops) {
    const body = op.body(shape);
    if (body === undefined) continue;
    serving = body;
    for (const [name, run] of Object.entries(impls)) {
      const got = await run(op.kind);
      if (got !== op.expected) throw new Error(`${shape.provider} ${name} '${op.label}': result differs (${JSON.stringify(got.slice(0, 60))}…)`);
    }
    const t = await measureCost(Object.fromEntries(Object.entries(impls).map(([n, run]) => [n, () => run(op.kind)])), quick ? Math.max(3, Math.ceil(op.samples / 15)) : op.samples);
    for (const [n, c] of Object.entries(t)) {
      ((per[shape.provider] ??= {})[n] ??= {})[op.label] = c.wall;
      ((perCpu[shape.provider] ??= {})[n] ??= {})[op.label] = c.cpu;
    }
    results.push({
      shape: shape.provider,
      operation: op.label,
      ...Object.fromEntries(Object.entries(t).map(([n, c]) => [`${n} µs`, +c.wall.toFixed(1)])),
      ...Object.fromEntries(Object.entries(t).map(([n, c]) => [`${n} CPU µs`, +c.cpu.toFixed(1)])),
    });
  }
  // Per-chunk slopes between successive counts: flat means no quadratic assembly.
  const label = (n: number) => ops.find((o) => o.kind === "stream" && o.label.includes(` ${n.toLocaleString("en")} `))!.label;
  for (let i = 1; i < COUNTS.length; i++) {
    const [a, b] = [COUNTS[i - 1]!, COUNTS[i]!];
    const slope = (m: typeof per, n: string) => +((m[shape.provider]![n]![label(b)]! - m[shape.provider]![n]![label(a)]!) / (b - a)).toFixed(2);
    results.push({
      shape: shape.provider,
      operation: `per chunk, slope ${a} → ${b}`,
      ...Object.fromEntries(Object.keys(impls).map((n) => [`${n} µs`, slope(per, n)])),
      ...Object.fromEntries(Object.keys(impls).map((n) => [`${n} CPU µs`, slope(perCpu, n)])),
    });
  }
}
const withRatios = results.map((r) => {
  const f = r["floor µs"] as number;
  const fc = r["floor CPU µs"] as number;
  const ratio = (k: string, v: unknown): [string, number] =>
    k.endsWith(" CPU µs") ? [`${k.slice(0, -7)} / floor CPU`, +((v as number) / fc).toFixed(2)] : [`${k.slice(0, -3)} / floor`, +((v as number) / f).toFixed(2)];
  return { ...r, ...Object.fromEntries(Object.entries(r).filter(([k]) => k.endsWith(" µs") && !k.startsWith("floor ")).map(([k, v]) => ratio(k, v))) };
});
console.table(withRatios);
const out = fileURLToPath(new URL("./results.llm.json", import.meta.url));
if (!quick && !noPeers && onlyShape === undefined) writeFileSync(out, JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, load1: loadavg()[0], cores: cpus().length, versions: { ai: "6.0.325", "@ai-sdk/openai": "3.0.141", "@langchain/openai": "1.5.8", "@langchain/core": "1.4.0" }, rows: withRatios }, null, 2) + "\n");
