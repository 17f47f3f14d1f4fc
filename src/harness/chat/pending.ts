/**
 * Paused turns of a chat session (harness-chat §8): which turns of a session wait for a signal,
 * and {@link ChatTurnPendingError}, the refusal `send()` answers while one does.
 *
 * Why a send is refused then. A paused turn resumes from its paused record's state (suspension §7),
 * and the resumed run saves that state over the session at its end (sessions §8.1, last write
 * wins). A turn run in between — on the session as saved at suspend — would be overwritten by
 * that save: its message shows in the history, then disappears once the paused turn is resumed.
 * The spec's serialization rule says "The second call awaits the first's outcome before beginning
 * its own session load + invoke dispatch" (harness-chat §5.3), and a harness "MUST NOT block on
 * suspended turns" (harness §5.3), while "An inbound `send()` call MUST NOT be classified as
 * signal-resume" (harness-chat §6): so the second message can neither wait nor answer the paused
 * turn, and is refused — with `chat_turn_pending`, a user-correctable error naming the paused
 * invocation and its signal — instead of being run and lost.
 *
 * Where the answer comes from. The paused records themselves are the truth (status `suspended`,
 * bound to the session, suspension §8.6): {@link PendingTurns} keeps, per session, the invocation
 * ids of the turns it saw suspend, and checks each one against its record before answering (a turn
 * resumed or cancelled around the chat layer no longer counts). At the first question after start
 * it reads the paused records of the graph once, so turns paused before a restart count too. Turns
 * another process pauses after that are not seen (the §5.3 serialization is per process as well).
 */
import type { Checkpointer } from "../../checkpoint/index.ts";
import type { PausedInvocationRecord, SignalDescriptor } from "../../suspension/index.ts";

/** A turn of a session paused awaiting a signal: what a client needs to offer its resume. */
export interface PendingTurn {
  readonly sessionId: string;
  /** The paused invocation (resume it with `ChatHarness.signal({ invocationId }, payload)`). */
  readonly invocationId: string;
  /** The suspension descriptor (signal id, metadata — e.g. `metadata.kind`). */
  readonly signalDescriptor: SignalDescriptor;
}

const quote = (s: string, max = 80): string => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);

/**
 * `send()` on a session whose turn waits for a signal (see the module comment). Its category,
 * `chat_turn_pending`, is the project's own (no spec names it); bucket `user_correctable`.
 */
export class ChatTurnPendingError extends Error {
  override name = "ChatTurnPendingError";
  readonly category = "chat_turn_pending";
  constructor(
    readonly sessionId: string,
    readonly pending: readonly PendingTurn[],
  ) {
    const first = pending[0]!;
    super(
      `this conversation has a turn waiting for a signal (invocation ${first.invocationId}, signal ${quote(first.signalDescriptor.signalId)}` +
        `${pending.length > 1 ? `, and ${pending.length - 1} more` : ""}); answer it first (approve / reject), then send the message again`,
    );
  }
}

/** What {@link PendingTurns} reads paused records through (a `withSuspension(...)` graph). */
export interface PausedRecords {
  readonly checkpointer: Checkpointer;
  load(invocationId: string): Promise<PausedInvocationRecord | undefined>;
}

/** The paused turns of each session (see the module comment). */
export class PendingTurns {
  readonly #records: PausedRecords;
  readonly #graphName: string;
  readonly #bySession = new Map<string, Set<string>>();
  #seeded: Promise<void> | undefined;

  constructor(records: PausedRecords, graphName: string) {
    this.#records = records;
    this.#graphName = graphName;
  }

  /** A turn of `sessionId` suspended as `invocationId`. */
  add(sessionId: string, invocationId: string): void {
    let ids = this.#bySession.get(sessionId);
    if (!ids) this.#bySession.set(sessionId, (ids = new Set()));
    ids.add(invocationId);
  }

  /** The turns of `sessionId` whose paused record is still `suspended`, oldest first. Backend errors propagate. */
  async of(sessionId: string): Promise<readonly PendingTurn[]> {
    await this.#seed();
    const ids = this.#bySession.get(sessionId);
    if (ids === undefined) return [];
    const found: { turn: PendingTurn; at: number }[] = [];
    for (const invocationId of [...ids]) {
      const r = await this.#records.load(invocationId);
      if (r === undefined || r.status !== "suspended" || r.sessionId !== sessionId) {
        ids.delete(invocationId);
        continue;
      }
      found.push({ turn: { sessionId, invocationId, signalDescriptor: r.descriptor }, at: r.suspendedAt });
    }
    if (ids.size === 0 && this.#bySession.get(sessionId) === ids) this.#bySession.delete(sessionId);
    return found.sort((a, b) => a.at - b.at).map((f) => f.turn);
  }

  /** Once per process: index the paused records of the graph that are still `suspended`. A failed read is retried next time. */
  #seed(): Promise<void> {
    this.#seeded ??= this.#scan().catch((e: unknown) => {
      this.#seeded = undefined;
      throw e;
    });
    return this.#seeded;
  }

  async #scan(): Promise<void> {
    for (const s of await this.#records.checkpointer.list({ graphName: this.#graphName })) {
      let r: PausedInvocationRecord | undefined;
      try {
        r = await this.#records.load(s.invocationId);
      } catch (e) {
        if ((e as { category?: unknown } | null)?.category !== "suspension_record_invalid") throw e;
        // One unreadable record must not refuse every session: it is reported here, and again by a resume of it.
        process.emitWarning(`chat: skipped the paused record of invocation ${s.invocationId}: ${e instanceof Error ? e.message : String(e)}`, "ChatPendingTurnWarning");
        continue;
      }
      if (r !== undefined && r.status === "suspended" && r.sessionId !== undefined) this.add(r.sessionId, r.invocationId);
    }
  }
}
