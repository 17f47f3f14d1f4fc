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
 * are not valid UTF-8 — so SSE chunk boundaries survive. Secrets never reach a cassette (`secrets.ts`):
 * auth headers (`authorization`, `x-api-key`, `x-goog-api-key`, `cookie`, `set-cookie`, ...) of the
 * request and the response are replaced by `[redacted]`, as is the value of a `key=` / `api_key=` /
 * `access_token=` query parameter; then the credentials the request carried there (the header value,
 * the token after `Bearer `, ...) and every configured secret are scrubbed from every recorded
 * string — URL, request and response headers, request body and response chunks (scanned as one
 * byte sequence, so a secret the server split across two chunks is caught) — as-is, percent-encoded
 * and JSON-escaped. A credential taken from the request is scrubbed from free text only from 8
 * characters on (a shorter test key would mangle the recording); configured `secrets` at any length.
 *
 * Modes: `playback` (default; no network), `record` (the real `fetch`, e.g. with a key from the
 * environment, then `save()`), `auto` (play back what matches, record the rest). `strict` makes
 * playback require the next interaction in order with the same method, URL and body.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { FetchFn } from "./http-provider.ts";
import { AUTH_HEADERS, MIN_CREDENTIAL_LENGTH, REDACTED, Scrubber, credentialsOf, redactAuthParams } from "./secrets.ts";

export { REDACTED } from "./secrets.ts";

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
  /**
   * Strings scrubbed from everything recorded (API keys, tokens a server may echo); auth headers,
   * auth query parameters and the credentials they carry are always redacted.
   */
  readonly secrets?: ReadonlyArray<string>;
  readonly interceptors?: ReadonlyArray<CassetteInterceptor>;
  /** The provenance written into a recorded cassette. */
  readonly provenance?: string;
}

/** A request the cassette cannot answer (a test failure, never a provider error category). */
export class CassetteMismatch extends Error {
  override name = "CassetteMismatch";
}


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

/** `headers` with auth headers redacted and secrets scrubbed from the other values. */
function scrubHeaders(headers: Readonly<Record<string, string>>, scrubber: Scrubber): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = AUTH_HEADERS.has(k.toLowerCase()) ? REDACTED : scrubber.text(v);
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
  const secrets = (options.secrets ?? []).filter((s) => typeof s === "string" && s.length > 0);
  /** The scrubber for one request: the configured secrets plus the credentials the request carries. */
  const scrubberFor = (url: string, headers: Readonly<Record<string, string>>): Scrubber =>
    new Scrubber([...secrets, ...credentialsOf(url, headers).filter((c) => c.length >= MIN_CREDENTIAL_LENGTH)]);

  const find = (method: string, rawUrl: string, rawBody: string | undefined, headers: Readonly<Record<string, string>>): number => {
    const scrubber = scrubberFor(rawUrl, headers);
    const url = scrubber.text(redactAuthParams(rawUrl));
    const body = rawBody === undefined ? undefined : scrubber.text(rawBody);
    if (options.strict) {
      const next = stored.findIndex((_, k) => !used.has(k));
      const i = stored[next];
      if (!i) throw new CassetteMismatch(`no interaction left for ${method} ${url}`);
      if (i.request.method !== method || i.request.url !== url || (i.request.body ?? undefined) !== body) {
        throw new CassetteMismatch(`request ${used.size} differs from the cassette: got ${method} ${url}, expected ${i.request.method} ${i.request.url} (or a different body)`);
      }
      return next;
    }
    return stored.findIndex((i, k) => !used.has(k) && i.request.method === method && i.request.url === url);
  };

  const record = async (url: string, init: RequestInit): Promise<globalThis.Response> => {
    const real = options.fetch ?? (globalThis.fetch as FetchFn);
    const res = await real(url, init);
    const raw: Uint8Array[] = [];
    const reader = res.body?.getReader();
    for (;;) {
      const r = reader ? await reader.read() : { done: true as const, value: undefined };
      if (r.done) break;
      raw.push(r.value);
    }
    const requestHeaders = headersOf(init.headers);
    const scrubber = scrubberFor(url, requestHeaders);
    const responseHeaders = headersOf(res.headers);
    const interaction: CassetteInteraction = {
      request: {
        method: init.method ?? "GET",
        url: scrubber.text(redactAuthParams(url)),
        headers: scrubHeaders(requestHeaders, scrubber),
        ...(typeof init.body === "string" ? { body: scrubber.text(init.body) } : {}),
      },
      response: { status: res.status, headers: scrubHeaders(responseHeaders, scrubber), chunks: scrubber.chunks(raw).map(toChunk) },
    };
    recorded.push(interaction);
    // The caller gets the bytes and headers as received; only the stored copy is scrubbed.
    return replay({ ...interaction, response: { status: res.status, headers: responseHeaders, chunks: raw.map(toChunk) } }, init.signal);
  };

  const fetchFn = (async (url: string, init: RequestInit) => {
    init.signal?.throwIfAborted();
    if (mode === "record") return record(url, init);
    const method = init.method ?? "GET";
    const headers = headersOf(init.headers);
    const k = find(method, url, typeof init.body === "string" ? init.body : undefined, headers);
    if (k < 0) {
      if (mode === "auto") return record(url, init);
      const scrubber = scrubberFor(url, headers);
      throw new CassetteMismatch(`the cassette has no interaction for ${method} ${scrubber.text(redactAuthParams(url))}`);
    }
    used.add(k);
    let interaction = stored[k]!;
    for (const intercept of options.interceptors ?? []) interaction = await intercept(interaction);
    return replay(interaction, init.signal);
  }) as FetchFn & { recorded(): Cassette };
  fetchFn.recorded = () => ({ version: 1, provenance: options.provenance ?? cassette?.provenance ?? "recorded", interactions: [...(mode === "record" ? [] : stored), ...recorded] });
  return fetchFn;
}
