/**
 * The turn-harness runner of a harness / harness-chat case. The case's graph is built by the graph
 * executor as usual; every call — a `transmissions:` entry, a `chat_turns:` entry, a
 * `signal_arrivals:` entry — goes through the library's real `TurnHarness` / `ChatHarness`
 * (`openarmature/harness`, `/harness/chat`) over `withSessions(graph, { store })`, with the real
 * `InMemorySignalCoordinator` and suspension through an `InMemoryCheckpointer`.
 *
 * The store is the library's `InMemorySessionStore` (it counts its calls); `behavior:
 * {load_raises}` makes its `load()` raise (the harness fixtures' synthetic injection). Around each
 * call the runner records the store's calls and records, the completed node events with the
 * session id the engine had bound, the coordinator's subscriptions and the paused record as the
 * call returned ({@link TurnCallFacet}), plus the harness's own result.
 */
import { InMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { CompiledGraph, InvocationHooks, InvocationResult, NodeEvent, StateRecord } from "../../src/graph/index.ts";
import { currentSessionId, InMemorySessionStore, withSessions, type SessionRecord } from "../../src/sessions/index.ts";
import { toDescriptorDocument } from "../../src/internal.ts";
import { InMemorySignalCoordinator, TurnHarness, type HarnessMode, type Transmission, type TurnInvokeOptions } from "../../src/harness/index.ts";
import { ChatHarness, historyOf, type ChatMessage, type ChatTurnOutcome } from "../../src/harness/chat/index.ts";
import { GraphCaseHooksSlot, type CallContext } from "../graph/extensions.ts";
import { useGraphExecutor } from "../graph/use-graph.ts";
import { SessionCallFacet } from "../sessions/facets.ts";
import { SuspendedOutcomeFacet } from "../suspension/facets.ts";
import { ChatCallFacet, TransmissionFacet, TurnCallFacet } from "./facets.ts";
import { isPlaceholder, resolveInvocationPlaceholder } from "../suspension/placeholders.ts";
import type { Observation } from "../../src/conformance/observation.ts";

/** Plan inputs. */
export const TRANSMISSION = "harness.transmission";
export const CHAT_SEND = "harness.chat_send";
export const CHAT_SIGNAL = "harness.chat_signal";

export interface ChatSendInput {
  readonly sessionId: string | undefined;
  readonly message: unknown;
  readonly listener: string | undefined;
}
export interface ChatSignalInput {
  readonly signalId: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A synthetic raise the store's `load()` makes (`behavior.load_raises`). */
export class InjectedStoreFailure extends Error {
  override name = "InjectedStoreFailure";
}

/** The library's in-memory store, with the fixtures' synthetic load failure. */
class FixtureSessionStore extends InMemorySessionStore {
  constructor(readonly loadRaises: string | undefined) {
    super();
  }
  override async load(sessionId: string): Promise<SessionRecord | null> {
    const r = await super.load(sessionId);
    if (this.loadRaises !== undefined) throw new InjectedStoreFailure(`synthetic ${this.loadRaises} injected by the fixture (session_store.behavior.load_raises) for session "${sessionId}"`);
    return r;
  }
  /** Every record, read without counting and without the injected failure. */
  async snapshot(): Promise<Map<string, SessionRecord>> {
    const out = new Map<string, SessionRecord>();
    for (const s of await super.list()) {
      const r = await super.load(s.sessionId);
      if (r) out.set(s.sessionId, r);
    }
    this.resetStats();
    return out;
  }
}

const NONE: ReadonlyMap<string, SessionRecord> = new Map();

export class TurnCaseState {
  mode: { readonly value: HarnessMode; readonly path: KeyPath } | undefined;
  store: { readonly loadRaises: string | undefined; readonly path: KeyPath } | undefined;
  chat = false;
  /** Listener name → the outcomes it received (in order) and the session it is subscribed to. */
  readonly listeners = new Map<string, { sessionId: string; received: ChatTurnOutcome[] }>();

  #installed = false;
  #locate: ((p: KeyPath) => FixtureLocation) | undefined;
  #graph: CompiledGraph | undefined;
  #store: FixtureSessionStore | undefined;
  readonly coordinator = new InMemorySignalCoordinator();
  #harness: TurnHarness | undefined;
  #chat: ChatHarness | undefined;
  #events: NodeEvent[] | undefined;
  #sessionIds: Array<string | undefined> | undefined;
  #signals = 0;

  install(ctx: ConfigureContext): this {
    this.#locate ??= ctx.locate;
    useGraphExecutor(ctx);
    if (this.#installed) return this;
    this.#installed = true;
    const hooks = ctx.slot(GraphCaseHooksSlot);
    hooks.runner = (c) => this.#run(c);
    hooks.invocationHooks.push(this.#capture);
    return this;
  }

  readonly #capture: InvocationHooks = {
    onNodeCompleted: (ev: NodeEvent) => {
      this.#events?.push(ev);
      this.#sessionIds?.push(currentSessionId());
    },
  };

  #setUp(graph: CompiledGraph, where: KeyPath): void {
    if (this.#graph === graph) return;
    this.#graph = graph;
    if (this.mode === undefined) throw new FixtureSchemaInvalid("a harness case needs 'harness: {mode}'", this.#locate!(where));
    if (this.store !== undefined) this.#store = new FixtureSessionStore(this.store.loadRaises);
    const g = graph as CompiledGraph<StateRecord, unknown>;
    const bound = withSessions(g, { store: this.#store ?? null, projection: "full" });
    const checkpointer = new InMemoryCheckpointer();
    if (this.chat) {
      if (this.mode.value !== "sessioned") throw new FixtureSchemaInvalid("the chat harness is sessioned-only (harness-chat §1)", this.#locate!(this.mode.path));
      if (this.#store === undefined) throw new FixtureSchemaInvalid("a chat case needs a 'session_store' (conversation history, harness-chat §4)", this.#locate!(where));
      this.#chat = new ChatHarness({ graph: bound, coordinator: this.coordinator, checkpointer });
      this.#harness = this.#chat.harness;
    } else {
      this.#harness = new TurnHarness({
        mode: this.mode.value,
        graph: this.mode.value === "sessioned" || this.#store !== undefined ? bound : g,
        coordinator: this.coordinator,
        checkpointer,
      });
    }
  }

  async #run(c: CallContext): Promise<InvocationResult> {
    this.#setUp(c.graph, c.plan.path);
    const harness = this.#harness!;
    const storeBefore = (await this.#store?.snapshot()) ?? NONE;
    this.#events = [];
    this.#sessionIds = [];
    const signalsBefore = this.#signals;
    const options: TurnInvokeOptions = {
      ...(c.options.observers !== undefined ? { observers: c.options.observers } : {}),
      ...(c.options.onObserverError !== undefined ? { onObserverError: c.options.onObserverError } : {}),
      ...(c.options.signal !== undefined ? { signal: c.options.signal } : {}),
      ...(c.options.hooks !== undefined ? { hooks: c.options.hooks } : {}),
    };
    const tx = c.plan.input<Transmission>(TRANSMISSION);
    const send = c.plan.input<ChatSendInput>(CHAT_SEND);
    const signal = c.plan.input<ChatSignalInput>(CHAT_SIGNAL);
    let returned: { outcome: string; raw: unknown; error: unknown; invocationId: string | undefined; suspended: unknown; sessionId: string | undefined };
    if (tx !== undefined) {
      if (tx.signal !== undefined || tx.intent === "signal_resume") this.#signals++;
      const sent = resolveTransmission(tx, c.previous, this.#locate!(c.plan.path));
      const turn = await harness.handle(sent, options);
      c.observation.set(TransmissionFacet, { transmission: sent, turn });
      returned = {
        outcome: turn.outcome,
        raw: turn.outcome === "errored" ? undefined : turn.result,
        error: turn.outcome === "errored" ? turn.error.error : undefined,
        invocationId: turn.invocationId,
        suspended: turn.outcome === "suspended" ? turn.result : undefined,
        sessionId: turn.sessionId,
      };
    } else {
      const chat = this.#chat!;
      const listenedBefore = new Map([...this.listeners].map(([n, l]) => [n, l.received.length]));
      let outcome: ChatTurnOutcome;
      let historyBefore: readonly ChatMessage[] | null;
      let sessionId: string | undefined;
      if (send !== undefined) {
        sessionId = send.sessionId;
        historyBefore = this.store?.loadRaises !== undefined ? null : historyOf(sessionId !== undefined ? (storeBefore.get(sessionId)?.state as Readonly<Record<string, unknown>> | undefined) : undefined);
        if (send.listener !== undefined && !this.listeners.has(send.listener) && sessionId !== undefined) {
          const entry = { sessionId, received: [] as ChatTurnOutcome[] };
          this.listeners.set(send.listener, entry);
          chat.subscribe(sessionId, (o) => void entry.received.push(o));
        }
        outcome = await chat.send(sessionId as string, send.message as ChatMessage, options);
      } else if (signal !== undefined) {
        this.#signals++;
        const sub = this.coordinator.subscriptions().find((s) => s.descriptor.signalId === signal.signalId);
        sessionId = sub?.sessionId;
        historyBefore = sessionId !== undefined ? historyOf(storeBefore.get(sessionId)?.state as Readonly<Record<string, unknown>> | undefined) : null;
        outcome = await chat.signal({ signalId: signal.signalId }, signal.payload, options);
      } else {
        throw new FixtureSchemaInvalid("a harness call needs a transmission, a chat turn or a signal arrival", this.#locate!(c.plan.path));
      }
      const listenerCalls = new Map([...this.listeners].map(([n, l]) => [n, l.received.slice(listenedBefore.get(n) ?? 0)]));
      c.observation.set(ChatCallFacet, { kind: send !== undefined ? "send" : "signal", sessionId, userMessage: send?.message, outcome, historyBefore, listenerCalls });
      returned = {
        outcome: outcome.outcome,
        raw: outcome.outcome === "errored" ? undefined : outcome.turn.result,
        error: outcome.outcome === "errored" ? outcome.error.error : undefined,
        invocationId: outcome.outcome === "errored" ? undefined : outcome.invocationId,
        suspended: outcome.outcome === "suspended" ? outcome.turn.result : undefined,
        sessionId,
      };
    }
    const storeCalls = this.#store?.stats() ?? null;
    const storeAfter = (await this.#store?.snapshot()) ?? NONE;
    const pausedAtReturn = returned.outcome === "suspended" && returned.invocationId !== undefined ? await harness.suspendable.load(returned.invocationId) : undefined;
    c.observation.set(TurnCallFacet, {
      previous: c.previous,
      events: this.#events,
      engineSessionIds: this.#sessionIds,
      storeCalls,
      storeBefore,
      storeAfter,
      subscriptionsAfter: this.coordinator.subscriptions(),
      pausedAtReturn,
      signalsDuringCall: this.#signals - signalsBefore - (tx?.signal !== undefined || tx?.intent === "signal_resume" || signal !== undefined ? 1 : 0),
    });
    if (this.#store !== undefined) {
      // What the general session assertions read (session_store_*_calls, ...).
      const sessionId = returned.sessionId;
      const raw = returned.raw as { loadedSessionState?: Readonly<Record<string, unknown>> | null; loadedRecord?: SessionRecord | null; savedSession?: never } | undefined;
      c.observation.set(SessionCallFacet, {
        sessionId,
        storeRegistered: true,
        reported: raw === undefined ? undefined : { loadedSessionState: raw.loadedSessionState ?? null, loadedRecord: raw.loadedRecord ?? null, savedSession: raw.savedSession ?? null },
        stats: storeCalls!,
        recordAfter: sessionId !== undefined ? (storeAfter.get(sessionId) ?? null) : null,
        storeBefore,
        storeAfter,
        explicitSaves: [],
      });
    }
    this.#events = undefined;
    this.#sessionIds = undefined;
    if (returned.suspended !== undefined) {
      const s = returned.suspended as { descriptor: Parameters<typeof toDescriptorDocument>[0]; nodeName: string; namespace: readonly string[]; markNodeCompleted: boolean; record: never };
      c.observation.set(SuspendedOutcomeFacet, {
        fanOutIndex: undefined,
        branchName: undefined,
        descriptor: toDescriptorDocument(s.descriptor),
        nodeName: s.nodeName,
        namespace: s.namespace,
        markNodeCompleted: s.markNodeCompleted,
        record: s.record,
      });
    }
    if (returned.outcome === "errored") throw returned.error;
    return returned.raw as InvocationResult;
  }
}

export const TurnCase = new SlotKey<TurnCaseState>("turn harness case", () => new TurnCaseState());

/** The case's turn-harness runner, installed (from a directive's `configure`). */
export function turnCase(ctx: ConfigureContext): TurnCaseState {
  return ctx.slot(TurnCase).install(ctx);
}

/**
 * A transmission with its input placeholders resolved (conformance-adapter §5.7, §5.10, §6.5): a
 * signal-resume's `invocation_id` written `<from <name> suspended outcome>` (in the payload, and so
 * in the arriving signal) becomes the earlier call's invocation id, read from its outcome, before
 * the harness receives it. A literal is sent verbatim.
 */
export function resolveTransmission(tx: Transmission, previous: readonly Observation[], where: FixtureLocation): Transmission {
  const raw = tx.signal?.invocationId;
  if (raw === undefined || !isPlaceholder(raw)) return tx;
  const invocationId = resolveInvocationPlaceholder(raw, previous, where);
  return { ...tx, payload: { ...tx.payload, invocation_id: invocationId }, signal: { ...tx.signal, invocationId } };
}
