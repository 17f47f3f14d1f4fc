/**
 * `openarmature chat` (a terminal chat) and `openarmature serve` (the HTTP runtime with its web
 * page), both on one {@link ChatHarness} over {@link providerChatGraph}.
 *
 * The model: the rule `agent` shares (model-choice.ts) — `--provider`, `--base-url`, `--script`,
 * a provider key in the environment — and, with none of them, the scripted provider's offline demo
 * (it streams "You said: …" back), so both commands run on a fresh machine with no key and no network.
 */
import { createInterface } from "node:readline";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import type { Provider } from "../llm/provider.ts";
import { chooseProvider, MODEL_FLAGS_HELP, modelRuleHelp } from "./model-choice.ts";
import { UsageError } from "./request.ts";
import { InMemorySessionStore, withSessions } from "../sessions/index.ts";
import { SqliteSessionStore } from "../sessions/sqlite.ts";
import { SqliteCheckpointer } from "../checkpoint/sqlite.ts";
import { ChatHarness, historyOf, providerChatGraph, streamReplyTo, type ChatMessage, type ChatTurnOutcome } from "../harness/chat/index.ts";
import { DEFAULT_CHAT_DATABASE, startHarnessServer, type HarnessServer } from "../harness/http/server.ts";
import { TOKEN_ENV, TOKEN_MIN_LENGTH } from "../harness/http/auth.ts";
import { isLoopbackHost } from "../harness/http/host-check.ts";
import { PausedRecordSignalCoordinator } from "../harness/signal-coordinator.ts";

const MODEL_OPTIONS = `${MODEL_FLAGS_HELP}
  --system TEXT        a system prompt
  --approve-when RE    a user message matching RE waits for approval before the model answers`;
const MODEL_RULE = modelRuleHelp("none of these (no key, no --provider): the offline demo, which streams \"You said: …\" back\n(the banner says so)");

export const CHAT_USAGE = `usage: openarmature chat [--session ID] [--database FILE] [model options]

A terminal chat: type a message, get the reply streamed; 'approve' / 'reject' answer an approval;
'/quit' or end of input exits. Standard input may be a pipe (one message a line).

  --session ID         the conversation (default: a new one); with --database it continues a saved one
  --database FILE      keep sessions and paused turns in this SQLite file (default: in memory)
${MODEL_OPTIONS}

${MODEL_RULE}`;

export const SERVE_USAGE = `usage: openarmature serve [--port N] [--host H] [--token T] [--database FILE] [model options]

The HTTP harness with the web chat page at / (POST /chat/<session>/messages, SSE, signals).

  --port N             default 8080 (0: any free port)
  --host H             default 127.0.0.1 (loopback). Any other address needs a token
  --token T            every request must carry it (Authorization: Bearer T; the page: open the
                       printed URL /?token=T once, it sets a cookie). At least ${TOKEN_MIN_LENGTH} characters.
                       Default $${TOKEN_ENV} (preferred: a flag shows in the process list).
                       Without a token on 127.0.0.1 the routes are open to every local process
  --allowed-host H     answer to this Host too (name: any port, name:port), e.g. behind a proxy
                       (repeatable; loopback names and the bound address always)
  --allowed-origin O   accept requests from this origin too (scheme://host[:port]; repeatable)
  --finish-turns-on-disconnect
                       a turn whose client disconnects runs to its end (default: it is aborted)
  --database FILE      sessions and paused turns (SQLite; default ${DEFAULT_CHAT_DATABASE})
${MODEL_OPTIONS}

${MODEL_RULE}

exit status: 0 after SIGINT / SIGTERM, 1 the server could not start (the store, the address), 2 a
usage error (including a non-loopback --host without a token)`;

export { chooseProvider, type ModelChoice } from "./model-choice.ts";

const MODEL_ARGS = {
  provider: { type: "string" },
  model: { type: "string" },
  script: { type: "string" },
  "base-url": { type: "string" },
  system: { type: "string" },
  "approve-when": { type: "string" },
  database: { type: "string" },
  help: { type: "boolean", default: false },
} as const;

function graphOf(values: { system?: string; "approve-when"?: string }, provider: Provider) {
  let approveWhen: ((text: string) => boolean) | undefined;
  if (values["approve-when"] !== undefined) {
    let re: RegExp;
    try {
      re = new RegExp(values["approve-when"]);
    } catch (e) {
      throw new UsageError(`--approve-when: ${(e as Error).message}`);
    }
    approveWhen = (t) => re.test(t);
  }
  return providerChatGraph(provider, { ...(values.system !== undefined ? { system: values.system } : {}), ...(approveWhen ? { approveWhen } : {}) });
}

/** The model and the chat graph of the command line; a usage problem is reported and `undefined`. */
function modelGraph(values: Parameters<typeof chooseProvider>[0] & Parameters<typeof graphOf>[0], command: string, err: NodeJS.WritableStream) {
  try {
    const choice = chooseProvider(values, process.env, "demo", command);
    return { choice, graph: graphOf(values, choice.provider) };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.write(`openarmature ${command}: ${e.message}\n`);
    return undefined;
  }
}

const textOf = (m: ChatMessage): string => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((b) => ("text" in b ? b.text : "")).join("") : "");

export async function chatCommand(argv: string[], io: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream; error?: NodeJS.WritableStream } = {}): Promise<number> {
  const out = io.output ?? process.stdout;
  const err = io.error ?? process.stderr;
  let values;
  try {
    values = parseArgs({ args: argv, options: { ...MODEL_ARGS, session: { type: "string" } }, strict: true }).values;
  } catch (e) {
    err.write(`openarmature chat: ${(e as Error).message}\n${CHAT_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    out.write(`${CHAT_USAGE}\n`);
    return 0;
  }
  const built = modelGraph(values, "chat", err);
  if (built === undefined) return 2;
  const { choice, graph } = built;
  const owned: { close(): void }[] = [];
  const store = values.database !== undefined ? new SqliteSessionStore(values.database) : new InMemorySessionStore();
  const paused = values.database !== undefined ? new SqliteCheckpointer(values.database, { table: "openarmature_paused" }) : undefined;
  if (store instanceof SqliteSessionStore) owned.push(store);
  if (paused) owned.push(paused);
  // A turn paused in an earlier run resumes by invocation id from its record (no live subscription then).
  const chat: ChatHarness = new ChatHarness({
    graph: withSessions(graph, { store, projection: "full" }),
    ...(paused ? { checkpointer: paused } : {}),
    coordinator: new PausedRecordSignalCoordinator((id) => chat.harness.suspendable.load(id)),
  });
  const session = values.session ?? randomUUID();
  err.write(`openarmature chat: ${choice.banner}; session ${session}. '/quit' to leave.\n`);
  for (const m of historyOf((await chat.sessions.load(session))?.state as Readonly<Record<string, unknown>> | undefined)) out.write(`${m.role}> ${textOf(m)}\n`);

  // The invocation id of a turn waiting for approval — one left by an earlier run of this session too.
  let waiting: string | undefined = (await chat.pending(session))[0]?.invocationId;
  if (waiting !== undefined) out.write(`(waiting for approval: type 'approve' or 'reject')\n`);
  const show = (o: ChatTurnOutcome, streamed: boolean): void => {
    if (o.outcome === "completed") {
      // The streamed text is already on screen; print whatever else the turn added.
      const rest = streamed ? o.replies.slice(1) : o.replies;
      if (streamed) out.write("\n");
      for (const m of rest) out.write(`${m.role}> ${textOf(m)}\n`);
      waiting = undefined;
    } else if (o.outcome === "suspended") {
      if (streamed) out.write("\n");
      for (const m of o.pendingMessages) out.write(`${m.role}> ${textOf(m)}\n`);
      out.write(`(waiting for approval: type 'approve' or 'reject')\n`);
      waiting = o.invocationId;
    } else {
      if (streamed) out.write("\n");
      out.write(`system> ${o.reply.content} [${o.errorCategory ?? o.errorBucket}]\n`);
      waiting = undefined;
    }
  };
  const turn = async (run: () => Promise<ChatTurnOutcome>): Promise<void> => {
    let started = false;
    const o = await streamReplyTo((delta) => {
      if (!started) out.write("assistant> ");
      started = true;
      out.write(delta);
    }, run);
    show(o, started);
  };
  const rl = createInterface({ input: io.input ?? process.stdin, terminal: false });
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === "") continue;
      if (line === "/quit" || line === "/exit") break;
      if (waiting !== undefined) {
        const invocationId = waiting;
        await turn(() => chat.signal({ invocationId }, { decision: line === "approve" ? "approve" : "reject" }));
        continue;
      }
      await turn(() => chat.send(session, { role: "user", content: line }));
    }
  } finally {
    rl.close();
    for (const o of owned) o.close();
  }
  return 0;
}

export async function serveCommand(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        ...MODEL_ARGS,
        port: { type: "string", default: "8080" },
        host: { type: "string", default: "127.0.0.1" },
        token: { type: "string" },
        "allowed-host": { type: "string", multiple: true, default: [] },
        "allowed-origin": { type: "string", multiple: true, default: [] },
        "finish-turns-on-disconnect": { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`openarmature serve: ${(e as Error).message}\n${SERVE_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`openarmature serve: --port must be an integer 0-65535, got '${values.port}'\n`);
    return 2;
  }
  const built = modelGraph(values, "serve", process.stderr);
  if (built === undefined) return 2;
  const { choice, graph } = built;
  const database = values.database ?? DEFAULT_CHAT_DATABASE;
  const token = values.token ?? (process.env[TOKEN_ENV] || undefined);
  let server: HarnessServer;
  try {
    server = await startHarnessServer(
      {
        graph,
        database,
        ...(token !== undefined ? { token } : {}),
        allowedHosts: values["allowed-host"],
        allowedOrigins: values["allowed-origin"],
        finishTurnsOnDisconnect: values["finish-turns-on-disconnect"],
      },
      port,
      values.host,
    );
  } catch (e) {
    // A categorized refusal (the token, the store, the address) is one line, not a stack trace.
    const category = (e as { category?: unknown } | null)?.category;
    if (typeof category !== "string") throw e;
    process.stderr.write(`openarmature serve: ${(e as Error).message.replace(/\s*\n\s*/g, " ")} [${category}]\n`);
    return category === "harness_server_token_required" || category === "harness_server_option_invalid" ? 2 : 1;
  }
  if (!isLoopbackHost(values.host)) {
    process.stderr.write(`openarmature serve: warning: listening on ${values.host}, reachable from the network; every request needs the token, and plain HTTP carries it readable: put a TLS proxy in front\n`);
  }
  // The page URL carries the token once: opening it sets the page cookie and drops it from the address bar.
  process.stdout.write(`openarmature serve: ${server.url}/${token !== undefined ? `?token=${encodeURIComponent(token)}` : ""} (${choice.banner}; sessions in ${database})\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.stdout.write("openarmature serve: shutting down (finishing the turns in flight)\n");
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close({ timeoutMs: 30_000 });
  return 0;
}
