/**
 * Cassettes: recorded HTTP exchanges replayed through an injected `fetch`, so provider code runs
 * unchanged against fixed bytes (the provider test obligations' VCR tier). A cassette is JSON:
 *
 * ```json
 * { "version": 1,
 *   "provenance": "how the bytes were obtained (recorded from <API> on <date>, or written from <doc>)",
 *   "interactions": [
 *     { "request":  { "method": "POST", "url": "...", "headers": { "authorization": "[redacted]" }, "body": "<exact bytes>" },
 *       "response": { "status": 200, "headers": { "content-type": "text/event-stream" },
 *                     "chunks": [ { "utf8": "data: {...}\n\n" }, { "base64": "..." } ] } } ] }
 * ```
 *
 * Response bodies are stored as the chunks the server sent — UTF-8 text, or base64 for bytes that
 * are not valid UTF-8 — so SSE chunk boundaries survive. Secrets never reach a cassette: auth
 * headers are replaced by `[redacted]` and every configured secret string is scrubbed from the
 * URL, headers and body before writing (response chunks are scrubbed one by one: a secret the server
 * split across two chunks would survive, so keep keys out of what a server echoes).
 *
 * Modes: `playback` (default; no network), `record` (the real `fetch`, e.g. with a key from the
 * environment, then `save()`), `auto` (play back what matches, record the rest). `strict` makes
 * playback require the next interaction in order with the same method, URL and body.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { FetchFn } from "./http-provider.ts";

export type CassetteChunk = { readonly utf8: string } | { readonly base64: string };

export interface CassetteInteraction {
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string };
  readonly response: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly chunks: ReadonlyArray<CassetteChunk> };
}

export interface Cassette {
  readonly version: 1;
  readonly provenance: string;
  readonly interactions: ReadonlyArray<CassetteInteraction>;
}

export type CassetteMode = "playback" | "record" | "auto";

/** Rewrites an interaction on replay (e.g. merge chunks, or add a delay per call). */
export type CassetteInterceptor = (interaction: CassetteInteraction) => CassetteInteraction | Promise<CassetteInteraction>;

export interface CassetteOptions {
  readonly mode?: CassetteMode;
  /** Playback must follow the cassette's order, with the same method, URL and body. */
  readonly strict?: boolean;
  /** The real `fetch` for `record` / `auto` (default: the global one). */
  readonly fetch?: FetchFn;
  /** Strings scrubbed from everything recorded (API keys); auth headers are always redacted. */
  readonly secrets?: ReadonlyArray<string>;
  readonly interceptors?: ReadonlyArray<CassetteInterceptor>;
  /** The provenance written into a recorded cassette. */
  readonly provenance?: string;
}

/** A request the cassette cannot answer (a test failure, never a provider error category). */
export class CassetteMismatch extends Error {
  override name = "CassetteMismatch";
}

export const REDACTED = "[redacted]";
const AUTH_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "api-key", "proxy-authorization", "cookie"]);

export function loadCassette(path: string): Cassette {
  const c = JSON.parse(readFileSync(path, "utf8")) as Cassette;
  if (c.version !== 1 || !Array.isArray(c.interactions) || typeof c.provenance !== "string") throw new Error(`${path}: not a version-1 cassette with provenance and interactions`);
  return c;
}

export function saveCassette(path: string, cassette: Cassette): void {
  writeFileSync(path, `${JSON.stringify(cassette, null, 2)}\n`);
}

/** Milliseconds to wait before answering, per call (an interceptor). */
export function delayInterceptor(ms: number): CassetteInterceptor {
  return async (i) => {
    await new Promise((r) => setTimeout(r, ms));
    return i;
  };
}

/** Merge every response chunk into one (an interceptor: a server that does not chunk). */
export const mergeChunksInterceptor: CassetteInterceptor = (i) => {
  const bytes = Buffer.concat(i.response.chunks.map(chunkBytes));
  return { ...i, response: { ...i.response, chunks: [toChunk(bytes)] } };
};

function chunkBytes(c: CassetteChunk): Buffer {
  return "utf8" in c ? Buffer.from(c.utf8, "utf8") : Buffer.from(c.base64, "base64");
}

function toChunk(bytes: Uint8Array): CassetteChunk {
  try {
    return { utf8: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes).toString("base64") };
  }
}

function headersOf(init: RequestInit["headers"] | Headers): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((v, k) => (out[k] = v));
  return out;
}

function replay(i: CassetteInteraction, signal: AbortSignal | null | undefined): globalThis.Response {
  const chunks = i.response.chunks.map(chunkBytes);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (signal?.aborted) return controller.error(signal.reason);
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(new Uint8Array(next));
    },
  });
  const status = i.response.status;
  return new Response(status === 204 || status === 304 ? null : body, { status, headers: i.response.headers });
}

/** A `fetch` that plays back (and / or records) `cassette`; `recorded()` is the cassette so far. */
export function cassetteFetch(cassette: Cassette | undefined, options: CassetteOptions = {}): FetchFn & { recorded(): Cassette } {
  const mode = options.mode ?? "playback";
  const stored = [...(cassette?.interactions ?? [])];
  const used = new Set<number>();
  const recorded: CassetteInteraction[] = [];
  const secrets = (options.secrets ?? []).filter((s) => s.length > 0);
  const scrub = (s: string): string => secrets.reduce((acc, secret) => acc.split(secret).join(REDACTED), s);

  const find = (method: string, url: string, body: string | undefined): number => {
    if (options.strict) {
      const next = stored.findIndex((_, k) => !used.has(k));
      const i = stored[next];
      if (!i) throw new CassetteMismatch(`no interaction left for ${method} ${scrub(url)}`);
      if (i.request.method !== method || i.request.url !== scrub(url) || (i.request.body ?? undefined) !== (body === undefined ? undefined : scrub(body))) {
        throw new CassetteMismatch(`request ${used.size} differs from the cassette: got ${method} ${scrub(url)}, expected ${i.request.method} ${i.request.url} (or a different body)`);
      }
      return next;
    }
    return stored.findIndex((i, k) => !used.has(k) && i.request.method === method && i.request.url === scrub(url));
  };

  const record = async (url: string, init: RequestInit): Promise<globalThis.Response> => {
    const real = options.fetch ?? (globalThis.fetch as FetchFn);
    const res = await real(url, init);
    const chunks: CassetteChunk[] = [];
    const reader = res.body?.getReader();
    for (;;) {
      const r = reader ? await reader.read() : { done: true as const, value: undefined };
      if (r.done) break;
      chunks.push(toChunk(r.value));
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(headersOf(init.headers))) headers[k] = AUTH_HEADERS.has(k) ? REDACTED : scrub(v);
    const interaction: CassetteInteraction = {
      request: { method: init.method ?? "GET", url: scrub(url), headers, ...(typeof init.body === "string" ? { body: scrub(init.body) } : {}) },
      response: { status: res.status, headers: headersOf(res.headers), chunks: chunks.map((c) => ("utf8" in c ? { utf8: scrub(c.utf8) } : c)) },
    };
    recorded.push(interaction);
    // The caller gets the bytes as received; only the stored copy is scrubbed.
    return replay({ ...interaction, response: { ...interaction.response, chunks } }, init.signal);
  };

  const fetchFn = (async (url: string, init: RequestInit) => {
    init.signal?.throwIfAborted();
    if (mode === "record") return record(url, init);
    const method = init.method ?? "GET";
    const k = find(method, url, typeof init.body === "string" ? init.body : undefined);
    if (k < 0) {
      if (mode === "auto") return record(url, init);
      throw new CassetteMismatch(`the cassette has no interaction for ${method} ${scrub(url)}`);
    }
    used.add(k);
    let interaction = stored[k]!;
    for (const intercept of options.interceptors ?? []) interaction = await intercept(interaction);
    return replay(interaction, init.signal);
  }) as FetchFn & { recorded(): Cassette };
  fetchFn.recorded = () => ({ version: 1, provenance: options.provenance ?? cassette?.provenance ?? "recorded", interactions: [...(mode === "record" ? [] : stored), ...recorded] });
  return fetchFn;
}
