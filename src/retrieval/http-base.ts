/**
 * What the HTTP embedding and rerank providers share: the bound model and endpoint, `ready()`
 * through the mapping's probe, and one request's round trip — sent through the injected `fetch`,
 * a non-2xx mapped to its §7 category (API key scrubbed), the body parsed as a JSON object or array.
 */
import { redactError, type LlmProviderError } from "../llm/errors.ts";
import type { Scrubber } from "../llm/secrets.ts";
import { endpointScrubber, parseBody, readText, send, type FetchFn } from "../llm/transport.ts";
import { invalidResponse } from "./errors.ts";
import { isRecord } from "./figures.ts";
import type { Endpoint, WireRequest } from "./mapping.ts";
import type { RawResponse, ReadyOptions } from "./types.ts";

export interface HttpBaseOptions {
  /** Registry name (`tei`, `openai`, ...). */
  readonly name: string;
  readonly model: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: FetchFn;
  /** Items per request (see each provider). */
  readonly chunkSize?: number;
}

interface WireSide {
  readonly system: string;
  readonly defaultBaseUrl?: string;
  mapError(status: number, bodyText: string, headers: Headers): LlmProviderError;
  readyRequest?(model: string, endpoint: Endpoint): WireRequest;
  interpretReady?(body: unknown, model: string): void;
}

export abstract class HttpRetrievalProvider {
  readonly name: string;
  readonly model: string;
  readonly endpoint: Endpoint;
  readonly #wire: WireSide;
  readonly #fetch: FetchFn | undefined;
  /** The endpoint's credentials, replaced in every error this provider raises. */
  readonly #scrubber: Scrubber;

  protected constructor(options: HttpBaseOptions, wire: WireSide, kind: string) {
    if (typeof options.model !== "string" || options.model.length === 0) throw new TypeError(`${kind} provider '${options.name}': model must be a non-empty string`);
    if (options.chunkSize !== undefined && !(Number.isInteger(options.chunkSize) && options.chunkSize > 0)) throw new TypeError(`${kind} provider '${options.name}': chunkSize must be a positive integer`);
    const baseUrl = options.baseUrl ?? wire.defaultBaseUrl;
    if (baseUrl === undefined) throw new TypeError(`${kind} provider '${options.name}': baseUrl is required (the ${wire.system} mapping has no default)`);
    this.name = options.name;
    this.model = options.model;
    this.#wire = wire;
    this.#fetch = options.fetch;
    this.endpoint = {
      baseUrl: baseUrl.replace(/\/+$/, ""),
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.headers !== undefined ? { headers: options.headers } : {}),
    };
    this.#scrubber = endpointScrubber(this.endpoint);
  }

  /** `e` with the endpoint's credentials replaced (in place; see llm `redactError`). */
  protected redact(e: unknown): unknown {
    return redactError(e, this.#scrubber);
  }

  /** The `gen_ai.system` of the wire surface (`tei`, `jina`, `openai`, `cohere`). */
  get system(): string {
    return this.#wire.system;
  }

  /** §3 / §5 `ready()`: the mapping's probe (a noop when it has none); idempotent. */
  async ready(options: ReadyOptions = {}): Promise<void> {
    const request = this.#wire.readyRequest?.(this.model, this.endpoint);
    if (request === undefined) return;
    const interpret = this.#wire.interpretReady;
    try {
      const body = await this.roundTrip(request, options.signal, interpret !== undefined);
      interpret?.(body, this.model);
    } catch (e) {
      throw this.redact(e);
    }
  }

  /** One request: the parsed success body (an object or an array), or the mapped §7 error. */
  protected async roundTrip(request: WireRequest, signal: AbortSignal | undefined, parse = true): Promise<RawResponse> {
    const res = await send(this.#fetch, this.name, request, signal);
    const text = await readText(res, signal);
    if (!res.ok) throw this.redact(this.#wire.mapError(res.status, text, res.headers));
    if (!parse) return {};
    const body = parseBody(text, res.status);
    if (!isRecord(body) && !Array.isArray(body)) throw invalidResponse(this.name, "the response is neither a JSON object nor an array", body);
    return body as RawResponse;
  }
}
