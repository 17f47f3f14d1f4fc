/**
 * An HTTP runtime for the harness on Node's own `node:http` (the transport surface harness §1
 * leaves to implementations). Routes (JSON bodies, `application/json`):
 *
 * | route | does |
 * |---|---|
 * | `POST /turns` `{payload?, intent?, session_id?}` | one `TurnHarness` turn (harness §3.0–§3.2) |
 * | `POST /signals` `{invocation_id? , signal_id?, payload?}` | the signal-resume path (§3.3, §6 REST callback) |
 * | `POST /chat/<session>/messages` `<ChatMessage>` | `ChatHarness.send()`; `Accept: text/event-stream` answers as server-sent events |
 * | `POST /chat/signals` `{invocation_id?, signal_id?, payload?}` | `ChatHarness.signal()` |
 * | `GET /chat/<session>/events` | server-sent events: every resumed turn of the session (the subscribed listener, harness-chat §8.2) |
 *
 * Status codes: a completed turn 200, a suspended one 202; an errored turn carries its §7 bucket —
 * `user_correctable` 422, `retryable_transient` 503 (with `Retry-After`), `session_terminating`
 * 409. A request the server cannot read is a 4xx with `{error: {category: "request_invalid", message}}`
 * (bad JSON 400, wrong content type 415, too large 413, unknown route 404, wrong method 405) —
 * never a 500 for a client's mistake. `close()` stops accepting, lets every turn in flight finish
 * (its outcome is persisted by the engine: session saved, paused record written), ends the event
 * streams, then resolves.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatHarness, ChatTurnOutcome } from "../chat/index.ts";
import type { TurnHarness, TurnResult } from "../turn-harness.ts";
import type { DispatchIntent } from "../transmission.ts";

export interface HarnessServerOptions {
  /** Serves `/turns` and `/signals`. */
  readonly harness?: TurnHarness;
  /** Serves `/chat/...`. */
  readonly chat?: ChatHarness;
  /** Largest accepted body, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Seconds in the `Retry-After` of a retryable error. Default 1. */
  readonly retryAfterSeconds?: number;
}

export interface HarnessServer {
  readonly server: Server;
  /** The base URL once listening (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Graceful shutdown (see the module comment). */
  close(): Promise<void>;
}

class RequestInvalid extends Error {
  readonly category = "request_invalid";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const INTENTS: readonly string[] = ["new_session", "existing_session", "signal_resume"];
const STATUS = { completed: 200, suspended: 202, user_correctable: 422, retryable_transient: 503, session_terminating: 409 } as const;

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

async function readJson(req: IncomingMessage, max: number): Promise<unknown> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim();
  if (type !== "application/json") throw new RequestInvalid(415, `expected Content-Type: application/json, got ${JSON.stringify(type)}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new RequestInvalid(413, `the body exceeds ${max} bytes`);
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new RequestInvalid(400, `the body is not JSON: ${(e as Error).message}`);
  }
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.length === 0) throw new RequestInvalid(400, `'${key}' must be a non-empty string`);
  return v;
}
function optionalObject(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (!isMapping(v)) throw new RequestInvalid(400, `'${key}' must be an object`);
  return v;
}
function signalOf(body: Record<string, unknown>): { signal: { invocationId?: string; signalId?: string }; payload: Record<string, unknown> } {
  const invocationId = optionalString(body, "invocation_id");
  const signalId = optionalString(body, "signal_id");
  if (invocationId === undefined && signalId === undefined) throw new RequestInvalid(400, "a signal needs 'invocation_id' or 'signal_id'");
  return { signal: { ...(invocationId !== undefined ? { invocationId } : {}), ...(signalId !== undefined ? { signalId } : {}) }, payload: optionalObject(body, "payload") ?? {} };
}

/** A turn result as JSON (the outbound shape plus the turn's identity). */
export function turnJson(t: TurnResult): Record<string, unknown> {
  return { outcome: t.outcome, path: t.path, session_id: t.sessionId ?? null, invocation_id: t.invocationId ?? null, outbound: t.outbound };
}
/** A chat outcome as JSON (the library's record without the engine internals). */
export function chatJson(o: ChatTurnOutcome): Record<string, unknown> {
  switch (o.outcome) {
    case "completed":
      return { outcome: o.outcome, session_id: o.sessionId, path: o.path, invocation_id: o.invocationId, replies: o.replies };
    case "suspended":
      return { outcome: o.outcome, session_id: o.sessionId, path: o.path, invocation_id: o.invocationId, signal_descriptor: o.signalDescriptor, pending_messages: o.pendingMessages };
    case "errored":
      return { outcome: o.outcome, session_id: o.sessionId, path: o.path, error_bucket: o.errorBucket, error_category: o.errorCategory, reply: o.reply };
  }
}

/** Start the server on `port` (0: any free port) of `host` (default 127.0.0.1). */
export async function startHarnessServer(options: HarnessServerOptions, port = 0, host = "127.0.0.1"): Promise<HarnessServer> {
  const max = options.maxBodyBytes ?? 1024 * 1024;
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  const inFlight = new Set<Promise<unknown>>();
  const streams = new Set<ServerResponse>();
  let closing = false;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const statusOf = (outcome: string, bucket?: string): number => (outcome === "errored" ? STATUS[bucket as keyof typeof STATUS] : STATUS[outcome as keyof typeof STATUS]);
  const answer = (req: IncomingMessage, res: ServerResponse, status: number, body: Record<string, unknown>): void => {
    if ((req.headers["accept"] ?? "").includes("text/event-stream")) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(`event: ${String(body["outcome"])}\ndata: ${JSON.stringify(body)}\n\n`);
      return;
    }
    send(res, status, body, status === 503 ? { "retry-after": retryAfter } : {});
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const parts = url.pathname.split("/").filter((p) => p !== "").map(decodeURIComponent);
    const method = req.method ?? "GET";
    const only = (m: string) => {
      if (method !== m) throw new RequestInvalid(405, `${url.pathname} accepts ${m} only`);
    };
    if (parts[0] === "turns" && parts.length === 1 && options.harness) {
      only("POST");
      const body = await readJson(req, max);
      if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
      const intent = optionalString(body, "intent");
      if (intent !== undefined && !INTENTS.includes(intent)) throw new RequestInvalid(400, `'intent' must be one of ${INTENTS.join(", ")}`);
      const sessionId = optionalString(body, "session_id");
      const payload = optionalObject(body, "payload") ?? {};
      const t = await options.harness.handle({ payload, ...(intent !== undefined ? { intent: intent as DispatchIntent } : {}), ...(sessionId !== undefined ? { sessionId } : {}) });
      return answer(req, res, statusOf(t.outcome, t.outcome === "errored" ? t.error.bucket : undefined), turnJson(t));
    }
    if (parts[0] === "signals" && parts.length === 1 && options.harness) {
      only("POST");
      const body = await readJson(req, max);
      if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
      const { signal, payload } = signalOf(body);
      const t = await options.harness.handle({ signal, signalPayload: payload });
      return answer(req, res, statusOf(t.outcome, t.outcome === "errored" ? t.error.bucket : undefined), turnJson(t));
    }
    if (parts[0] === "chat" && options.chat) {
      const chat = options.chat;
      if (parts.length === 2 && parts[1] === "signals") {
        only("POST");
        const body = await readJson(req, max);
        if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
        const { signal, payload } = signalOf(body);
        const o = await chat.signal(signal, payload);
        return answer(req, res, statusOf(o.outcome, o.outcome === "errored" ? o.errorBucket : undefined), chatJson(o));
      }
      if (parts.length === 3 && parts[2] === "messages") {
        only("POST");
        const message = await readJson(req, max);
        // An invalid message is the harness's own user-correctable outcome (chat_message_shape_invalid, 422).
        const o = await chat.send(parts[1]!, message as never);
        return answer(req, res, statusOf(o.outcome, o.outcome === "errored" ? o.errorBucket : undefined), chatJson(o));
      }
      if (parts.length === 3 && parts[2] === "events") {
        only("GET");
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(": subscribed\n\n");
        streams.add(res);
        const unsubscribe = chat.subscribe(parts[1]!, (o) => void res.write(`event: ${o.outcome}\ndata: ${JSON.stringify(chatJson(o))}\n\n`));
        res.on("close", () => {
          unsubscribe();
          streams.delete(res);
        });
        return;
      }
    }
    throw new RequestInvalid(404, `no route ${method} ${url.pathname}`);
  };

  const server = createServer((req, res) => {
    if (closing) {
      send(res, 503, { error: { category: "server_closing", message: "the server is shutting down" } }, { connection: "close" });
      return;
    }
    const p = route(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.end();
      if (e instanceof RequestInvalid) send(res, e.status, { error: { category: e.category, message: e.message } });
      else send(res, 500, { error: { category: "harness_server_defect", message: e instanceof Error ? e.message : String(e) } });
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    async close(): Promise<void> {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of streams) s.end();
      await Promise.allSettled([...inFlight]);
      server.closeIdleConnections();
      await stopped;
    },
  };
}
