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
 * Access (checked on every request, before any route; see `auth.ts`, `host-check.ts`):
 * - **Token.** With `token` (the CLI: `--token` / `$OPENARMATURE_TOKEN`) every route needs
 *   `Authorization: Bearer <token>` or the page cookie that `GET /?token=<token>` sets (303 to the
 *   URL without the token; `HttpOnly; SameSite=Strict`) — else 401 `request_unauthenticated`.
 *   Listening on a non-loopback address without a token is refused at start
 *   (`harness_server_token_required`). On loopback without a token the routes are open to every
 *   process of the machine (the Host and Origin checks still apply).
 * - **Host allow-list** (DNS rebinding) and **Origin check** (other origins in the browser): 403
 *   `request_forbidden`.
 *
 * Refusals at start are a `HarnessServerError` (`errors.ts`): `harness_server_token_required`,
 * `harness_server_option_invalid` (a short token, a bad limit or allow-list entry),
 * `harness_server_store_unavailable` (a store's own categorized error, e.g. `session_store_corrupt`,
 * passes through), `harness_server_listen_failed`.
 *
 * Status codes: a completed turn 200, a suspended one 202; an errored turn carries its §7 bucket —
 * `user_correctable` 422, `retryable_transient` 503 (with `Retry-After`), `session_terminating`
 * 409. A refused request is a 4xx with `{error: {category, message}}` (`errors.ts`):
 * `request_invalid` when the server cannot read it (bad JSON or a malformed percent-encoding in
 * the path 400, wrong content type 415 — compared case-insensitively —, too large 413, unknown
 * route 404, wrong method 405), `request_unauthenticated` 401, `request_forbidden` 403,
 * `request_timeout` 408 — never a 500 for a client's mistake. A streamed answer is
 * `200 text/event-stream`: zero or more `event: delta` (`{text}`), then one `event: <outcome>`
 * carrying the same JSON body.
 *
 * Bounds (`limits.ts`): header, body and idle timeouts, a connection cap, a body size cap, a
 * heartbeat and an unread-buffer cap on event streams. A turn whose client disconnects before its
 * answer (a closed stream, a dropped request) is aborted through its `AbortSignal` — the model call
 * stops, nothing of the turn is saved — unless `finishTurnsOnDisconnect: true` or the request's
 * `?on_disconnect=finish` (`?on_disconnect=abort` overrides the option the other way).
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
import { TokenGate } from "./auth.ts";
import { HarnessServerError, RequestInvalid, RequestRefused } from "./errors.ts";
import { HostCheck, isLoopbackHost, urlHost, type HostCheckOptions } from "./host-check.ts";
import { applyLimits, readJson, resolveLimits, serverOptions, writeStream, type ServerLimitOptions } from "./limits.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCompiled = CompiledGraph<any, any>;

export interface HarnessServerOptions extends ServerLimitOptions, HostCheckOptions {
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
  /**
   * The token every route checks (Bearer header or the page cookie; see the module comment). At
   * least 16 visible ASCII characters. Required when `host` is not a loopback address.
   */
  readonly token?: string;
  /**
   * Let a turn whose client disconnected run to its end (saved as usual) instead of aborting it.
   * Default false; a request's `?on_disconnect=finish|abort` overrides it.
   */
  readonly finishTurnsOnDisconnect?: boolean;
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

const INTENTS: readonly string[] = ["new_session", "existing_session", "signal_resume"];
const STATUS = { completed: 200, suspended: 202, user_correctable: 422, retryable_transient: 503, session_terminating: 409 } as const;
export const DEFAULT_CHAT_DATABASE = "openarmature-chat.db";

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
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

/** The request's URL and its decoded path segments; a malformed percent-encoding is 400 `request_invalid`. */
function requestPath(req: IncomingMessage): { url: URL; parts: string[] } {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    return { url, parts: url.pathname.split("/").filter((p) => p !== "").map(decodeURIComponent) };
  } catch (e) {
    throw new RequestInvalid(400, `the request path ${JSON.stringify((req.url ?? "").slice(0, 200))} is not a valid URL path: ${(e as Error).message}`);
  }
}

const sseEvent = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const INTERRUPTED: unique symbol = Symbol("interrupted");
const interrupted = { error: { category: "turn_interrupted", message: "the server shut down before the turn finished; nothing of it was saved — send it again" } };

/** `close()` each store (the ones the server opened), reporting nothing: the start already failed. */
const closeAll = (owned: readonly { close(): void }[]): void => {
  for (const o of owned) {
    try {
      o.close();
    } catch {
      // The start failed for another reason, the one reported.
    }
  }
};

/**
 * Start the server on `port` (0: any free port) of `host` (default 127.0.0.1). Refuses to start —
 * a {@link HarnessServerError} — without a `token` on a non-loopback `host`, with a malformed
 * token or limit, on a store that cannot be opened, or when the address cannot be listened on.
 */
export async function startHarnessServer(options: HarnessServerOptions, port = 0, host = "127.0.0.1"): Promise<HarnessServer> {
  if (options.graph !== undefined && options.chat !== undefined) throw new TypeError("startHarnessServer: pass either 'chat' or 'graph', not both");
  const token = options.token;
  if (token === undefined && !isLoopbackHost(host)) {
    throw new HarnessServerError("harness_server_token_required", `refusing to listen on ${host}, which is reachable from other machines, without a token: pass 'token' (openarmature serve: --token or $OPENARMATURE_TOKEN), or listen on 127.0.0.1`);
  }
  const limits = resolveLimits(options);
  const hosts = new HostCheck(options, host);
  const gate = token === undefined ? undefined : new TokenGate(token);
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
    /** Open a store on `database`; an uncategorized failure becomes `harness_server_store_unavailable`. */
    const open = <S extends { close(): void }>(what: string, make: () => S): S => {
      try {
        const opened = make();
        owned.push(opened);
        return opened;
      } catch (e) {
        closeAll(owned);
        if (typeof (e as { category?: unknown } | null)?.category === "string") throw e;
        throw new HarnessServerError("harness_server_store_unavailable", `could not open the SQLite file '${database}' for ${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    };
    const store = options.sessions ?? open("sessions", () => new SqliteSessionStore(database));
    const paused = options.checkpointer ?? open("paused turns", () => new SqliteCheckpointer(database, { table: "openarmature_paused" }));
    // Paused turns stay resumable by invocation id across a restart: correlation falls back to the record.
    const coordinator = new PausedRecordSignalCoordinator((id) => built.harness.suspendable.load(id));
    const built: ChatHarness = new ChatHarness({ graph: withSessions(options.graph, { store, projection: "full" }), checkpointer: paused, coordinator });
    chat = built;
  }
  const page = options.page ?? chat !== undefined;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void => {
    res.writeHead(status, { "content-type": "application/json", "x-content-type-options": "nosniff", ...headers });
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
  /** Does a turn of this request run on after its client disconnected? (`?on_disconnect=finish|abort`, else the option.) */
  const finishesOnDisconnect = (req: IncomingMessage): boolean => {
    const asked = new URL(req.url ?? "/", "http://localhost").searchParams.get("on_disconnect");
    if (asked === null) return options.finishTurnsOnDisconnect ?? false;
    if (asked !== "finish" && asked !== "abort") throw new RequestInvalid(400, `'on_disconnect' must be 'finish' or 'abort', got ${JSON.stringify(asked)}`);
    return asked === "finish";
  };
  /**
   * Run one turn with its abort signal — aborted by `close()` past its deadline, and when the client
   * disconnects before the answer (unless the turn finishes in the background); a streamed request
   * gets the reply's deltas first.
   */
  const turn = async <T>(req: IncomingMessage, res: ServerResponse, run: (o: TurnInvokeOptions) => Promise<T>): Promise<T | typeof INTERRUPTED> => {
    const abort = new AbortController();
    const checkpoint = new AbortController();
    const gone = (): void => {
      if (!res.writableEnded) abort.abort(new Error("the client disconnected before the turn's answer"));
    };
    if (!finishesOnDisconnect(req)) {
      if (res.socket === null || res.socket.destroyed) gone(); // it left while its body was read
      else res.once("close", gone);
    }
    aborts.add(abort);
    checkpoints.add(checkpoint);
    try {
      const o: TurnInvokeOptions = { ...options.turnOptions, signal: abort.signal };
      const body = (): Promise<T> => checkpointableTurn(checkpoint.signal, () => run(o));
      const result = wantsStream(req)
        ? await streamReplyTo((text) => {
            if (!res.headersSent) res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
            writeStream(res, sseEvent("delta", { text }), limits);
          }, body)
        : await body();
      return abort.signal.aborted ? INTERRUPTED : result;
    } finally {
      res.off("close", gone);
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

  /** The port listened on (the Host allow-list and the page cookie's name carry it). */
  let listening = 0;

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    hosts.check(req, listening);
    const { url, parts } = requestPath(req);
    const method = req.method ?? "GET";
    const only = (m: string) => {
      if (method !== m) throw new RequestInvalid(405, `${url.pathname} accepts ${m} only`);
    };
    if (gate !== undefined) {
      if (parts.length === 0 && page && method === "GET" && url.searchParams.has("token")) {
        const { status, headers } = gate.exchange(url, listening);
        res.writeHead(status, headers);
        return void res.end();
      }
      gate.require(req, listening);
    }
    if (parts.length === 0 && page) {
      only("GET");
      // The page may not be framed by another origin (its Approve button must not be clickjacked).
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": "frame-ancestors 'none'",
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      });
      return void res.end(CHAT_PAGE);
    }
    const harness = options.harness;
    if (parts[0] === "turns" && parts.length === 1 && harness) {
      only("POST");
      const body = await readJson(req, limits);
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
      const body = await readJson(req, limits);
      if (!isMapping(body)) throw new RequestInvalid(400, "the body must be a JSON object");
      const { signal, payload } = signalOf(body);
      const t = await turn(req, res, (o) => harness.handle({ signal, signalPayload: payload }, o));
      return answerTurn(req, res, t, t === INTERRUPTED ? {} : turnJson(t));
    }
    if (parts[0] === "chat" && chat) {
      const c = chat;
      if (parts.length === 2 && parts[1] === "signals") {
        only("POST");
        const body = await readJson(req, limits);
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
        const message = await readJson(req, limits);
        // An invalid message is the harness's own user-correctable outcome (chat_message_shape_invalid, 422).
        const o = await turn(req, res, (opts) => c.send(parts[1]!, message as never, opts));
        return answerTurn(req, res, o, o === INTERRUPTED ? {} : chatJson(o));
      }
      if (parts.length === 3 && parts[2] === "events") {
        only("GET");
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.write(": subscribed\n\n");
        streams.add(res);
        const unsubscribe = c.subscribe(parts[1]!, (o) => writeStream(res, sseEvent(o.outcome, chatJson(o)), limits));
        const heartbeat = setInterval(() => writeStream(res, ": ping\n\n", limits), limits.heartbeatMs);
        res.on("close", () => {
          clearInterval(heartbeat);
          unsubscribe();
          streams.delete(res);
        });
        return;
      }
    }
    throw new RequestInvalid(404, `no route ${method} ${url.pathname}`);
  };

  const server = createServer(serverOptions(limits), (req, res) => {
    if (closing) {
      send(res, 503, { error: { category: "server_closing", message: "the server is shutting down" } }, { connection: "close" });
      return;
    }
    const p = route(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.end();
      // A body left unread (refused before or while reading it: 401, 403, 408, 413) is not drained:
      // the answer closes the connection.
      const unread: Record<string, string> = req.complete ? {} : { connection: "close" };
      if (e instanceof RequestRefused) send(res, e.status, { error: { category: e.category, message: e.message } }, { ...e.headers, ...unread });
      else send(res, 500, { error: { category: "harness_server_defect", message: e instanceof Error ? e.message : String(e) } }, unread);
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  });
  applyLimits(server, limits);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
  } catch (e) {
    closeAll(owned);
    throw new HarnessServerError("harness_server_listen_failed", `could not listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const address = server.address() as AddressInfo;
  listening = address.port;
  return {
    server,
    url: `http://${urlHost(host)}:${address.port}`,
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
