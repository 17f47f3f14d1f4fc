/**
 * The mock provider (conformance-adapter §5.11): a `fetch` that answers the real provider's
 * requests with the fixture's `mock_provider.responses` — one entry per wire request, in order,
 * across the whole case — or its `health_endpoint` for `ready()`; `connection_failure: true`
 * rejects like a refused connection. Every request is captured with its bytes. Only the network
 * edge is mocked: mapping, validation, retry and parsing are the library's.
 */
import { parse as parseYaml } from "yaml";
import type { FetchFn } from "../../src/llm/index.ts";
import type { ServedResponse, WireCapture } from "./facets.ts";

export interface MockEntry {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly stream_body?: ReadonlyArray<unknown>;
  /** After the `stream_body` chunks, the connection drops (the body stream errors mid-read). */
  readonly stream_drops?: boolean;
  readonly connection_failure?: boolean;
}

export interface HealthEndpoint extends MockEntry {
  readonly path?: string;
}

export interface MockProviderSpec {
  readonly responses?: ReadonlyArray<MockEntry>;
  readonly capabilities?: Readonly<Record<string, boolean>>;
  readonly health_endpoint?: HealthEndpoint;
}

/** The request member name repeated inside one object, if any (JSON parsed with duplicate detection). */
export function repeatedMember(text: string): string | undefined {
  try {
    parseYaml(text, { uniqueKeys: true, schema: "json" });
    return undefined;
  } catch (e) {
    const m = /Map keys must be unique[^"]*"?([^"\n]*)"?/.exec((e as Error).message);
    return m ? (m[1] ?? "?") : undefined;
  }
}

function capture(url: string, init: RequestInit): WireCapture {
  const headers: Array<readonly [string, string]> = [];
  new Headers(init.headers).forEach((v, k) => headers.push([k, v]));
  const bodyText = typeof init.body === "string" ? init.body : undefined;
  let body: Record<string, unknown> | undefined;
  if (bodyText !== undefined) {
    try {
      body = JSON.parse(bodyText) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
  }
  return { url, method: init.method ?? "GET", headers, bodyText, body, repeatedMember: bodyText === undefined ? undefined : repeatedMember(bodyText) };
}

function sse(chunks: ReadonlyArray<unknown>): string {
  return chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`).join("");
}

function answer(entry: MockEntry): Response {
  if (entry.connection_failure) throw new TypeError("fetch failed: connect ECONNREFUSED (mock connection_failure)");
  const status = entry.status ?? 200;
  if (entry.stream_body !== undefined) {
    const headers = { "content-type": "text/event-stream", ...entry.headers };
    if (!entry.stream_drops) return new Response(sse(entry.stream_body), { status, headers });
    const bytes = new TextEncoder().encode(sse(entry.stream_body));
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      // The chunks are read first; the next read fails (error() would discard queued chunks).
      pull(controller) {
        if (!sent && bytes.length) {
          sent = true;
          controller.enqueue(bytes);
        } else controller.error(new TypeError("terminated: the mock connection dropped mid-stream"));
      },
    });
    return new Response(body, { status, headers });
  }
  const text = entry.body === undefined ? "" : JSON.stringify(entry.body);
  return new Response(status === 204 ? null : text, { status, headers: { "content-type": "application/json", ...entry.headers } });
}

/** The mock's `fetch` and what it saw. One instance serves a whole case. */
export class MockProvider {
  readonly requests: WireCapture[] = [];
  readonly served: ServedResponse[] = [];
  #next = 0;
  constructor(private readonly spec: MockProviderSpec) {}

  get exhausted(): boolean {
    return this.#next >= (this.spec.responses?.length ?? 0);
  }

  readonly fetch: FetchFn = async (url, init) => {
    init.signal?.throwIfAborted();
    this.requests.push(capture(url, init));
    const health = this.spec.health_endpoint;
    if ((init.method ?? "GET") === "GET" && health && (health.path === undefined || new URL(url).pathname === health.path)) {
      return answer(health);
    }
    const entry = this.spec.responses?.[this.#next++];
    if (!entry) {
      // Not a provider failure: the fixture did not expect this request. A 599 maps to
      // provider_unavailable, and no_request_issued / wire_requests report the stray request.
      return new Response(JSON.stringify({ error: { message: "the mock provider has no response left for this request" } }), { status: 599 });
    }
    this.served.push({ status: entry.status ?? 200, ...(entry.body !== undefined ? { body: entry.body } : {}), ...(entry.stream_body !== undefined ? { streamBody: entry.stream_body } : {}) });
    return answer(entry);
  };
}
