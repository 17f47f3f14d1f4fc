/**
 * A scripted `fetch` for provider tests: the network edge is the only thing faked. Each request is
 * recorded (URL, method, headers, body bytes) and answered with the next scripted reply.
 */
import type { FetchFn, LlmProviderError } from "../../src/llm/index.ts";

export type Reply =
  | { status: number; json?: unknown; headers?: Record<string, string>; text?: string }
  | { status?: 200; sse: ReadonlyArray<unknown>; headers?: Record<string, string> }
  | { networkError: string };

export interface Recorded {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/** SSE bytes for a list of chunks (objects are JSON-encoded, strings sent as-is, e.g. "[DONE]"). */
export function sseText(chunks: ReadonlyArray<unknown>): string {
  return chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`).join("");
}

export function fakeFetch(replies: Reply[]): { fetch: FetchFn; requests: Recorded[] } {
  const requests: Recorded[] = [];
  const queue = [...replies];
  const fetch: FetchFn = async (url, init) => {
    init.signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    requests.push({ url, method: init.method ?? "GET", headers, body: typeof init.body === "string" ? init.body : undefined });
    const r = queue.shift();
    if (!r) throw new Error(`unexpected request ${init.method} ${url}`);
    if ("networkError" in r) throw new TypeError(r.networkError);
    if ("sse" in r) {
      return new Response(sseText(r.sse), { status: 200, headers: { "content-type": "text/event-stream", ...r.headers } });
    }
    const body = r.text ?? (r.json === undefined ? "" : JSON.stringify(r.json));
    return new Response(body, { status: r.status, headers: { "content-type": "application/json", ...r.headers } });
  };
  return { fetch, requests };
}

export function chatBody(content: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "cc-1",
    object: "chat.completion",
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    ...extra,
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<LlmProviderError> {
  try {
    await p;
  } catch (e) {
    return e as LlmProviderError;
  }
  throw new Error("expected a rejection");
}
