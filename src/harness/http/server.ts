/**
 * An HTTP runtime for the harness on Node's own `node:http` (the transport surface harness §1
 * leaves to implementations). Routes (JSON bodies, `application/json`):
 *
 * | route | does |
 * |---|---|
 * | `POST /turns` `{payload?, intent?, session_id?}` | one `TurnHarness` turn (harness §3.0–§3.2) |
 * | `POST /signals` `{invocation_id? , signal_id?, payload?}` | the signal-resume path (§3.3, §6 REST callback) |
 * | `POST /chat/<session>/messages` `<ChatMessage>` | `ChatHarness.send()`; `Accept: text/event-stream` streams the reply (`delta` events, then the outcome) |
 * | `GET /chat/<session>/messages` | the session's history `{messages, pending}` (empty for an unknown session); `pending`: its turns waiting for a signal, `[{invocation_id, signal_descriptor}]` |
 * | `POST /chat/signals` `{invocation_id?, signal_id?, payload?}` | `ChatHarness.signal()` (streams like a message) |
 * | `GET /chat/<session>/events` | server-sent events: every resumed turn of the session (the subscribed listener, harness-chat §8.2) |
 * | `GET /` | the web chat page (`page.ts`; `page: false` turns it off) |
 *
 * Sessions: pass a ready `chat` harness, or a chat `graph` and the server builds the harness with
 * its sessions and paused turns in SQLite (`database`, default `openarmature-chat.db`; `sessions`
 * takes any `SessionStore` instead) — and a signal naming a paused invocation resumes it after a
 * restart too (`PausedRecordSignalCoordinator`).
 *
 * Status codes: a completed turn 200, a suspended one 202; an errored turn carries its §7 bucket —
 * `user_correctable` 422, `retryable_transient` 503 (with `Retry-After`), `session_terminating`
 * 409. A request the server cannot read is a 4xx with `{error: {category: "request_invalid", message}}`
 * (bad JSON 400, wrong content type 415, too large 413, unknown route 404, wrong method 405) —
 * never a 500 for a client's mistake. A streamed answer is `200 text/event-stream`: zero or more
 * `event: delta` (`{text}`), then one `event: <outcome>` carrying the same JSON body.
 *
 * `close()` stops accepting (503 `server_closing`), ends the event streams and lets every turn in
 * flight finish — its outcome persisted by the engine (session saved, paused record written). With
 * `close({ timeoutMs })` a turn still running at the deadline is checkpointed: a checkpointable
 * graph (`providerChatGraph`, see `checkpointableTurn`) suspends it — its client gets the `suspended`
 * answer (descriptor `metadata.kind: "interrupted"`) and resumes it with `POST /chat/signals
 * {invocation_id}`, after a restart too. A turn still running `checkpointGraceMs` later (a graph
 * that does not cooperate) is aborted through its `AbortSignal`: its session keeps the history from
 * before the turn (nothing of it is saved) and its client gets `503 turn_interrupted` (resend the
 * message). Then the SQLite stores the server opened are closed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Checkpointer } from "../../checkpoint/index.ts";
import { SqliteCheckpointer } from "../../checkpoint/sqlite.ts";
import type { CompiledGraph } from "../../graph/index.ts";
import { SqliteSessionStore } from "../../sessions/sqlite.ts";
import { withSessions, type SessionStore } from "../../sessions/index.ts";
import { ChatHarness, type ChatTurnOutcome } from "../chat/chat-harness.ts";
import { historyOf } from "../chat/history.ts";
import { PausedRecordSignalCoordinator } from "../signal-coordinator.ts";
import { checkpointableTurn, streamReplyTo } from "../chat/provider-graph.ts";
import type { TurnHarness, TurnInvokeOptions, TurnResult } from "../turn-harness.ts";
import type { DispatchIntent } from "../transmission.ts";
import { CHAT_PAGE } from "./page.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCompiled = CompiledGraph<any, any>;

export interface HarnessServerOptions {
  /** Serves `/turns` and `/signals`. */
  readonly harness?: TurnHarness;
  /** Serves `/chat/...` and the page. */
  readonly chat?: ChatHarness;
  /**
   * A chat graph (state with `messages`, see `messagesField()`): the server builds the
   * {@link ChatHarness} itself, sessions in `sessions` or SQLite (`database`). Not with `chat`.
   */
  readonly graph?: AnyCompiled;
  /** With `graph`: where sessions live. Default: a `SqliteSessionStore` on `database`. */
  readonly sessions?: SessionStore;
  /** With `graph`: where paused turns live. Default: a `SqliteCheckpointer` (table `openarmature_paused`) on `database`. */
  readonly checkpointer?: Checkpointer;
  /** With `graph`: the SQLite file for sessions and paused turns (unless `sessions` / `checkpointer`). Default `openarmature-chat.db`. */
  readonly database?: string;
  /** Serve the web chat page at `GET /` (default: whenever there is a chat harness). */
  readonly page?: boolean;
  /** Largest accepted body, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Seconds in the `Retry-After` of a retryable error. Default 1. */
  readonly retryAfterSeconds?: number;
  /** Per-turn engine options (observers, hooks, metadata) for every turn the server runs. */
  readonly turnOptions?: TurnInvokeOptions;
}

export interface CloseOptions {
  /**
   * Checkpoint the turns still running after this many ms (default: wait for them however long):
   * a checkpointable turn (`providerChatGraph`) suspends as a paused record, resumable later; one
   * still running `checkpointGraceMs` after that is aborted.
   */
  readonly timeoutMs?: number;
  /** How long checkpointing turns get before the rest are aborted. Default 2000 ms. */
  readonly checkpointGraceMs?: number;
}

export interface HarnessServer {
  readonly server: Server;
  /** The base URL once listening (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** The chat harness the server runs (built from `graph`, or the one passed). */
  readonly chat: ChatHarness | undefined;
  /** Graceful shutdown (see the module comment). */
  close(options?: CloseOptions): Promise<void>;
}

class RequestInvalid extends Error {
  readonly category = "request_invalid";
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const INTENTS: readonly string[] = ["new_session", "existing_session", "signal_resume"];
const STATUS = { completed: 200, suspended: 202, user_correctable: 422, retryable_transient: 503, session_terminating: 409 } as const;
export const DEFAULT_CHAT_DATABASE = "openarmature-chat.db";

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

const sseEvent = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const INTERRUPTED: unique symbol = Symbol("interrupted");
const interrupted = { error: { category: "turn_interrupted", message: "the server shut down before the turn finished; nothing of it was saved — send it again" } };

/** Start the server on `port` (0: any free port) of `host` (default 127.0.0.1). */
export async function startHarnessServer(options: HarnessServerOptions, port = 0, host = "127.0.0.1"): Promise<HarnessServer> {
  if (options.graph !== undefined && options.chat !== undefined) throw new TypeError("startHarnessServer: pass either 'chat' or 'graph', not both");
  const max = options.maxBodyBytes ?? 1024 * 1024;
  const retryAfter = String(options.retryAfterSeconds ?? 1);
  const inFlight = new Set<Promise<unknown>>();
  const streams = new Set<ServerResponse>();
  const aborts = new Set<AbortController>();
  const checkpoints = new Set<AbortController>();
  const owned: { close(): void }[] = [];
  let closing = false;

  let chat = options.chat;
  if (options.graph !== undefined) {
    const database = options.database ?? DEFAULT_CHAT_DATABASE;
    const store = options.sessions ?? new SqliteSessionStore(database);
    if (options.sessions === undefined) owned.push(store as SqliteSessionStore);
    const paused = options.checkpointer ?? new SqliteCheckpointer(database, { table: "openarmature_paused" });
    if (options.checkpointer === undefined) owned.push(paused as SqliteCheckpointer);
    // Paused turns stay resumable by invocation id across a restart: correlation falls back to the record.
    const coordinator = new PausedRecordSignalCoordinator((id) => built.harness.suspendable.load(id));
    const built: ChatHarness = new ChatHarness({ graph: withSessions(options.graph, { store, projection: "full" }), checkpointer: paused, coordinator });
    chat = built;
  }
  const page = options.page ?? chat !== undefined;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const statusOf = (outcome: string, bucket?: string): number => (outcome === "errored" ? STATUS[bucket as keyof typeof STATUS] : STATUS[outcome as keyof typeof STATUS]);
  const wantsStream = (req: IncomingMessage): boolean => (req.headers["accept"] ?? "").includes("text/event-stream");
  const answer = (req: IncomingMessage, res: ServerResponse, status: number, body: Record<string, unknown>): void => {
    if (wantsStream(req)) {
      if (!res.headersSent) res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(sseEvent(String(body["outcome"]), body));
      return;
    }
    send(res, status, body, status === 503 ? { "retry-after": retryAfter } : {});
  };
  /** Run one turn with the server's abort signal; a streamed request gets the reply's deltas first. */
  const turn = async <T>(req: IncomingMessage, res: ServerResponse, run: (o: TurnInvokeOptions) => Promise<T>): Promise<T | typeof INTERRUPTED> => {
    const abort = new AbortController();
    const checkpoint = new AbortController();
    aborts.add(abort);
    checkpoints.add(checkpoint);
    try {
      const o: TurnInvokeOptions = { ...options.turnOptions, signal: abort.signal };
      const body = (): Promise<T> => checkpointableTurn(checkpoint.signal, () => run(o));
      const result = wantsStream(req)
        ? await streamReplyTo((text) => {
            if (!res.headersSent) res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
            res.write(sseEvent("delta", { text }));
          }, body)
        : await body();
      return abort.signal.aborted ? INTERRUPTED : result;
    } finally {
      aborts.delete(abort);
      checkpoints.delete(checkpoint);
    }
  };
  const answerTurn = (req: IncomingMessage, res: ServerResponse, r: ChatTurnOutcome | TurnResult | typeof INTERRUPTED, json: Record<string, unknown>): void => {
    if (r === INTERRUPTED) {
      if (wantsStream(req)) return void res.end(sseEvent("interrupted", interrupted));
      return send(res, 503, interrupted, { "retry-after": retryAfter });
    }
    const bucket = r.outcome !== "errored" ? undefined : "errorBucket" in r ? r.errorBucket : (r as TurnResult & { outcome: "errored" }).error.bucket;
    answer(req, res, statusOf(r.outcome, bucket), json);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const parts = url.pathname.split("/").filter((p) => p !== "").map(decodeURIComponent);
    const method = req.method ?? "GET";
    const only = (m: string) => {
      if (method !== m) throw new RequestInvalid(405, `${url.pathname} accepts ${m} only`);
    };
    if (parts.length === 0 && page) {
      only("GET");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
      return void res.end(CHAT_PAGE);
    }
    const harness = options.harness;
    if (parts[0] === "turns" && parts.length === 1 && harness) {
      only("POST");
      const body = await readJson(req, max);
      if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
      const intent = optionalString(body, "intent");
      if (intent !== undefined && !INTENTS.includes(intent)) throw new RequestInvalid(400, `'intent' must be one of ${INTENTS.join(", ")}`);
      const sessionId = optionalString(body, "session_id");
      const payload = optionalObject(body, "payload") ?? {};
      const t = await turn(req, res, (o) => harness.handle({ payload, ...(intent !== undefined ? { intent: intent as DispatchIntent } : {}), ...(sessionId !== undefined ? { sessionId } : {}) }, o));
      return answerTurn(req, res, t, t === INTERRUPTED ? {} : turnJson(t));
    }
    if (parts[0] === "signals" && parts.length === 1 && harness) {
      only("POST");
      const body = await readJson(req, max);
      if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
      const { signal, payload } = signalOf(body);
      const t = await turn(req, res, (o) => harness.handle({ signal, signalPayload: payload }, o));
      return answerTurn(req, res, t, t === INTERRUPTED ? {} : turnJson(t));
    }
    if (parts[0] === "chat" && chat) {
      const c = chat;
      if (parts.length === 2 && parts[1] === "signals") {
        only("POST");
        const body = await readJson(req, max);
        if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
        const { signal, payload } = signalOf(body);
        const o = await turn(req, res, (opts) => c.signal(signal, payload, opts));
        return answerTurn(req, res, o, o === INTERRUPTED ? {} : chatJson(o));
      }
      if (parts.length === 3 && parts[2] === "messages") {
        if (method === "GET") {
          const record = await c.sessions.load(parts[1]!);
          const pending = (await c.pending(parts[1]!)).map((p) => ({ invocation_id: p.invocationId, signal_descriptor: p.signalDescriptor }));
          return send(res, 200, { session_id: parts[1], messages: historyOf(record?.state as Readonly<Record<string, unknown>> | undefined), pending });
        }
        only("POST");
        const message = await readJson(req, max);
        // An invalid message is the harness's own user-correctable outcome (chat_message_shape_invalid, 422).
        const o = await turn(req, res, (opts) => c.send(parts[1]!, message as never, opts));
        return answerTurn(req, res, o, o === INTERRUPTED ? {} : chatJson(o));
      }
      if (parts.length === 3 && parts[2] === "events") {
        only("GET");
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(": subscribed\n\n");
        streams.add(res);
        const unsubscribe = c.subscribe(parts[1]!, (o) => void res.write(sseEvent(o.outcome, chatJson(o))));
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
      // A body left unread (413) would keep the connection busy: close it with the answer.
      if (e instanceof RequestInvalid) send(res, e.status, { error: { category: e.category, message: e.message } }, e.status === 413 ? { connection: "close" } : {});
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
    chat,
    async close(closeOptions: CloseOptions = {}): Promise<void> {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of streams) s.end();
      const all = Promise.allSettled([...inFlight]);
      const within = async (ms: number): Promise<void> => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
        clearTimeout(timer);
      };
      if (closeOptions.timeoutMs !== undefined) {
        await within(closeOptions.timeoutMs);
        for (const c of checkpoints) c.abort(new Error("the server is shutting down: checkpoint the turn"));
        if (checkpoints.size > 0) await within(closeOptions.checkpointGraceMs ?? 2000);
        for (const a of aborts) a.abort(new Error("the server is shutting down"));
      }
      await all;
      server.closeIdleConnections();
      await stopped;
      for (const o of owned) o.close();
    },
  };
}
