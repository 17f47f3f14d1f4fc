/**
 * Time and size bounds of the HTTP runtime, so one slow or hostile client cannot hold the server.
 *
 * | option | default | bounds |
 * |---|---|---|
 * | `headersTimeoutMs` | 10 000 | receiving a request's headers (`server.headersTimeout`; then 408 and the connection closed) |
 * | `bodyTimeoutMs` | 30 000 | reading a request's body, from its headers on (408 `request_timeout`, connection closed); `server.requestTimeout` is headers + body as Node's own backstop |
 * | `idleTimeoutMs` | 5 000 | a kept-alive connection with no request (`server.keepAliveTimeout`) |
 * | `maxConnections` | 256 | open connections (`server.maxConnections`: the ones past it are closed on accept) |
 * | `maxBodyBytes` | 1 MiB | a request body (413) |
 * | `heartbeatMs` | 15 000 | a comment line (`: ping`) on each `GET /chat/<session>/events` stream, so a dead client is noticed and proxies keep it open |
 * | `maxStreamBufferBytes` | 1 MiB | server-sent events a client has not read yet: past it the stream is closed (a client that stopped reading) |
 *
 * Event streams and streamed replies are not bound by the request timeouts — those end once the
 * request is read; a stream lives until its turn ends or the client leaves.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { HarnessServerError, RequestInvalid, RequestRefused } from "./errors.ts";

export interface ServerLimitOptions {
  /** See the module comment: ms to receive a request's headers. Default 10 000. */
  readonly headersTimeoutMs?: number;
  /** Ms to receive a request's body once its headers are in. Default 30 000. */
  readonly bodyTimeoutMs?: number;
  /** Ms a kept-alive connection may sit idle. Default 5 000. */
  readonly idleTimeoutMs?: number;
  /** Open connections at most. Default 256. */
  readonly maxConnections?: number;
  /** Largest accepted body, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Ms between heartbeat comments on an event stream. Default 15 000. */
  readonly heartbeatMs?: number;
  /** Unread bytes a stream's client may leave buffered before the stream is closed. Default 1 MiB. */
  readonly maxStreamBufferBytes?: number;
}

export type ServerLimits = Required<ServerLimitOptions>;

export const DEFAULT_LIMITS: ServerLimits = Object.freeze({
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  idleTimeoutMs: 5_000,
  maxConnections: 256,
  maxBodyBytes: 1024 * 1024,
  heartbeatMs: 15_000,
  maxStreamBufferBytes: 1024 * 1024,
});

/** The limits of `options` over the defaults; a non-positive or non-integer value is `harness_server_option_invalid`. */
export function resolveLimits(options: ServerLimitOptions): ServerLimits {
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ServerLimits)[]) {
    const v = options[key];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v <= 0) throw new HarnessServerError("harness_server_option_invalid", `${key} must be a positive integer, got ${String(v)}`);
    out[key] = v;
  }
  return out as unknown as ServerLimits;
}

/** `createServer` options: how often Node checks the header / request deadlines (a quarter of the shortest, within 50 ms – 1 s). */
export function serverOptions(limits: ServerLimits): { connectionsCheckingInterval: number } {
  return { connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs) / 4))) };
}

/** Apply the timeouts and the connection cap to a `node:http` server. */
export function applyLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.headersTimeoutMs + limits.bodyTimeoutMs;
  server.keepAliveTimeout = limits.idleTimeoutMs;
  server.maxConnections = limits.maxConnections;
}

/** `Content-Type` is JSON (case-insensitive; a charset, if any, UTF-8) — else 415. */
function checkJsonType(header: string | undefined): void {
  const [type = "", ...params] = (header ?? "").split(";");
  if (type.trim().toLowerCase() !== "application/json") throw new RequestInvalid(415, `expected Content-Type: application/json, got ${JSON.stringify(type.trim())}`);
  for (const p of params) {
    const [k = "", v = ""] = p.split("=");
    const charset = v.trim().replace(/^"(.*)"$/, "$1").toLowerCase();
    if (k.trim().toLowerCase() === "charset" && charset !== "utf-8" && charset !== "utf8") throw new RequestInvalid(415, `a JSON body must be UTF-8, got charset ${JSON.stringify(charset)}`);
  }
}

/**
 * Read a JSON body: JSON content type, at most `limits.maxBodyBytes` (413), complete within
 * `limits.bodyTimeoutMs` (408 `request_timeout`); an empty body is `{}`. A body refused half-read
 * answers with `Connection: close` (the rest is never read).
 */
export async function readJson(req: IncomingMessage, limits: ServerLimits): Promise<unknown> {
  checkJsonType(req.headers["content-type"]);
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
    };
    const fail = (e: Error): void => {
      done();
      req.pause();
      reject(e);
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > limits.maxBodyBytes) return fail(new RequestInvalid(413, `the body exceeds ${limits.maxBodyBytes} bytes`, { connection: "close" }));
      chunks.push(c);
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks));
    };
    const onError = (e: Error): void => fail(e);
    const onClose = (): void => {
      if (!req.complete) fail(new RequestInvalid(400, "the client closed the connection before sending the whole body"));
    };
    const timer = setTimeout(() => fail(new RequestRefused("request_timeout", 408, `the body did not arrive within ${limits.bodyTimeoutMs} ms`, { connection: "close" })), limits.bodyTimeoutMs);
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
  const text = body.toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new RequestInvalid(400, `the body is not JSON: ${(e as Error).message}`);
  }
}

/** Write to a stream unless its client has left `maxStreamBufferBytes` unread — then close it. */
export function writeStream(res: ServerResponse, text: string, limits: ServerLimits): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.writableLength > limits.maxStreamBufferBytes) return void res.destroy();
  res.write(text);
}
