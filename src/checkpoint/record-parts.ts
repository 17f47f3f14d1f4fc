/**
 * @internal The parts of a checkpoint record that grow with a run, stored apart from the record
 * row and each written only when it changed — the SQL-agnostic half, shared by the SQLite and the
 * Postgres checkpointers (`sqlite-parts.ts`, `src/postgres/checkpointer.ts`), which execute the
 * writes it plans on their own tables.
 *
 * A record is a full snapshot (§10.2), but between two saves of one run little of it changes: one
 * more completed position, one fan-out instance's progress, and a state that stays the same for
 * the whole of a fan-out (the save point is the fan-out node's dispatch). Rewritten whole on every
 * save, a 1,000-item checkpointed fan-out wrote ~156 MB (~2 saves per item, each carrying the
 * `items` list and all N instances). So:
 *
 * - `<table>_positions` — `completed_positions`, one row per position (appended).
 * - `<table>_parts` — `(invocation_id, part, slot, doc)`: part 0 holds the save point (slot 0 the
 *   `state`, slot 1 the `parent_states`), rewritten only when the recorder moved the save point
 *   (a different state object); part `k >= 1` is one `fan_out_progress` entry — slot -1 its header
 *   (namespace, node, instance count, lineage), slot `i` instance `i` — whose instances are
 *   written only for the slots that changed since the version this process last stored
 *   ({@link instancesOrigin}, O(changes)). Entries are read back in part order.
 *
 * What "last stored" means is remembered per invocation in this process and trusted only while
 * the record row still carries the writer token this process put there (the caller reads it,
 * inside its transaction, and passes it to {@link RecordParts.write}): a row written by another
 * checkpointer (another process, or a record this process never saw) gets every part rewritten.
 * The writes go to a {@link PartsSink}, in order, inside the caller's transaction.
 */
import { randomUUID } from "node:crypto";
import { messageOf } from "../graph/index.ts";
import { CheckpointRecordInvalidError } from "./errors.ts";
import { instancesOrigin } from "./fan-out-progress.ts";
import {
  fanOutHeaderToDoc,
  fromRecordDocument,
  instanceToDoc,
  positionToDoc,
  type CheckpointRecord,
  type FanOutInstanceProgress,
  type FanOutProgressEntry,
  type NodePosition,
} from "./record.ts";
import { decodeValue, encodeValue, type RecordEncoding } from "./serialization.ts";

/** The writes of one save, in order (a backend runs them on its `_positions` / `_parts` tables). */
export interface PartsSink {
  /** Delete every position row of the invocation. */
  deletePositions(invocationId: string): void;
  /** Insert position row `seq`. */
  insertPosition(invocationId: string, seq: number, doc: string): void;
  /** Insert or replace part row `(part, slot)`. */
  putPart(invocationId: string, part: number, slot: number, doc: string): void;
  /** Delete every row of part `part`. */
  deleteEntry(invocationId: string, part: number): void;
  /** Delete every fan-out entry row (`part > 0`). */
  deleteEntries(invocationId: string): void;
  /** Delete every part row. */
  deleteParts(invocationId: string): void;
}

/** How many invocations' last-stored parts a checkpointer remembers (most recent saves). */
const STORED_KEPT = 256;

const SAVE_POINT = 0;
const HEADER_SLOT = -1;

/**
 * One stored fan-out entry: its part number and what it was stored from (held weakly, like the
 * states below: the cache must not keep a finished run's state or instances alive; a collected
 * object just means the next save of that invocation rewrites the part).
 */
interface StoredEntry {
  readonly part: number;
  readonly entry: WeakRef<FanOutProgressEntry>;
  readonly list: WeakRef<object> | undefined;
  readonly version: number;
}

/** What this process last stored for one invocation. */
interface Stored {
  readonly writer: string;
  readonly positions: readonly NodePosition[];
  readonly state: WeakRef<object>;
  readonly parentStates: readonly WeakRef<object>[];
  readonly entries: readonly StoredEntry[];
  readonly nextPart: number;
}

/** Are the first `prior.length` entries of `next` the very entries of `prior`? */
function isPrefix(prior: readonly NodePosition[], next: readonly NodePosition[]): boolean {
  if (prior.length > next.length) return false;
  for (let i = 0; i < prior.length; i++) if (prior[i] !== next[i]) return false;
  return true;
}

/**
 * Is `next` the very object stored before, and frozen (so it cannot have changed since)? The
 * engine's states and the recorder's records are frozen; a caller's mutable object is rewritten.
 */
function unchanged(prior: WeakRef<object>, next: object): boolean {
  return prior.deref() === next && Object.isFrozen(next);
}

function sameStates(prior: readonly WeakRef<object>[], next: readonly object[]): boolean {
  return prior.length === next.length && prior.every((x, i) => unchanged(x, next[i]!));
}

/** The stored parts of one record, as text (what {@link assembleRecord} decodes). */
export interface PartRows {
  readonly positions: readonly string[];
  readonly parts: readonly { readonly part: number; readonly slot: number; readonly doc: string }[];
}

/** Plans the writes of each save (see the module comment); one per checkpointer. */
export class RecordParts {
  readonly #encoding: RecordEncoding;
  readonly #writerPrefix = randomUUID();
  #writes = 0;
  readonly #stored = new Map<string, Stored>();

  constructor(encoding: RecordEncoding) {
    this.#encoding = encoding;
  }

  #text(value: unknown, at: string): string {
    return JSON.stringify(encodeValue(value, this.#encoding, at));
  }

  /**
   * Write what changed of `record`'s positions, save point and fan-out progress to `sink`, given
   * the writer token the stored record row carries (`undefined`: none). Returns the writer token
   * the record row must carry after this save.
   */
  write(invocationId: string, record: CheckpointRecord, storedWriter: string | undefined, sink: PartsSink): string {
    const writer = `${this.#writerPrefix}:${this.#writes++}`;
    let prior = this.#stored.get(invocationId);
    this.#stored.delete(invocationId); // re-set below on success; a rollback leaves nothing trusted
    if (prior !== undefined && storedWriter !== prior.writer) prior = undefined;
    if (prior === undefined) {
      sink.deletePositions(invocationId);
      sink.deleteParts(invocationId);
    }

    const positions = record.completedPositions;
    let from = 0;
    if (prior !== undefined && isPrefix(prior.positions, positions)) from = prior.positions.length;
    else if (prior !== undefined) sink.deletePositions(invocationId);
    for (let i = from; i < positions.length; i++) {
      sink.insertPosition(invocationId, i, this.#text(positionToDoc(positions[i]!), `record.completed_positions[${i}]`));
    }

    if (prior === undefined || !unchanged(prior.state, record.state) || !sameStates(prior.parentStates, record.parentStates)) {
      sink.putPart(invocationId, SAVE_POINT, 0, this.#text(record.state, "record.state"));
      sink.putPart(invocationId, SAVE_POINT, 1, this.#text(record.parentStates, "record.parent_states"));
    }

    const { entries, nextPart } = this.#writeFanOut(invocationId, record.fanOutProgress ?? [], prior, sink);
    const state = new WeakRef(record.state);
    const parentStates = record.parentStates.map((p) => new WeakRef(p));
    this.#stored.set(invocationId, { writer, positions, state, parentStates, entries, nextPart });
    if (this.#stored.size > STORED_KEPT) this.#stored.delete(this.#stored.keys().next().value!);
    return writer;
  }

  #writeFanOut(
    invocationId: string,
    progress: readonly FanOutProgressEntry[],
    prior: Stored | undefined,
    sink: PartsSink,
  ): { entries: StoredEntry[]; nextPart: number } {
    const before = prior?.entries ?? [];
    let nextPart = prior?.nextPart ?? 1;
    const out: StoredEntry[] = [];
    const kept = new Set<StoredEntry>();
    for (let k = 0; k < progress.length; k++) {
      const entry = progress[k]!;
      const origin = instancesOrigin(entry);
      const trusted = origin !== undefined || (Object.isFrozen(entry) && Object.isFrozen(entry.instances));
      const same = trusted ? before.find((s) => s.entry.deref() === entry && !kept.has(s)) : undefined;
      if (same !== undefined) {
        kept.add(same);
        out.push(same);
        continue;
      }
      const older = origin && before.find((s) => s.list?.deref() === origin.list && s.version <= origin.version && !kept.has(s));
      if (older !== undefined && origin !== undefined) {
        kept.add(older);
        for (const i of origin.list.changedBetween(older.version, origin.version)) {
          this.#putInstance(sink, invocationId, older.part, i, origin.list.at(i, origin.version), k);
        }
        out.push({ part: older.part, entry: new WeakRef(entry), list: older.list, version: origin.version });
        continue;
      }
      out.push(this.#putEntry(sink, invocationId, nextPart++, entry, k));
    }
    for (const s of before) if (!kept.has(s)) sink.deleteEntry(invocationId, s.part);
    // Entries load in part order: when the record's order is not that, renumber them all.
    if (out.some((s, k) => k > 0 && s.part <= out[k - 1]!.part)) {
      sink.deleteEntries(invocationId);
      nextPart = 1;
      return { entries: progress.map((entry, k) => this.#putEntry(sink, invocationId, nextPart++, entry, k)), nextPart };
    }
    return { entries: out, nextPart };
  }

  /** Write a whole entry (header and every instance) as part `part`. */
  #putEntry(sink: PartsSink, invocationId: string, part: number, entry: FanOutProgressEntry, k: number): StoredEntry {
    const origin = instancesOrigin(entry);
    sink.putPart(invocationId, part, HEADER_SLOT, this.#text(fanOutHeaderToDoc(entry), `record.fan_out_progress[${k}]`));
    const instances = entry.instances;
    for (let i = 0; i < instances.length; i++) this.#putInstance(sink, invocationId, part, i, instances[i]!, k);
    return { part, entry: new WeakRef(entry), list: origin && new WeakRef(origin.list), version: origin?.version ?? 0 };
  }

  #putInstance(sink: PartsSink, invocationId: string, part: number, i: number, instance: FanOutInstanceProgress, k: number): void {
    sink.putPart(invocationId, part, i, this.#text(instanceToDoc(instance), `record.fan_out_progress[${k}].instances[${i}]`));
  }

  /** Forget what this process stored for `invocationId` (its transaction rolled back, or it was deleted). */
  forget(invocationId: string): void {
    this.#stored.delete(invocationId);
  }
}

/**
 * Rebuild a record from its row's header document and its {@link PartRows}. A missing or torn part
 * is `checkpoint_record_invalid`.
 */
export function assembleRecord(
  invocationId: string,
  header: string,
  encoding: RecordEncoding,
  positionCount: number,
  rows: PartRows,
): CheckpointRecord {
  const torn = (what: string): never => {
    throw new CheckpointRecordInvalidError(`stored record of "${invocationId}" ${what}`);
  };
  if (rows.positions.length !== positionCount) torn(`has ${rows.positions.length} of its ${positionCount} completed positions`);
  let doc: Record<string, unknown>;
  try {
    const parse = (text: string): unknown => decodeValue(JSON.parse(text) as unknown, encoding);
    const head = parse(header);
    if (typeof head !== "object" || head === null || Array.isArray(head)) torn("has a record row that is not a mapping");
    doc = { ...(head as Record<string, unknown>), completed_positions: rows.positions.map(parse) };
    const entries: { header: Record<string, unknown>; instances: unknown[] }[] = [];
    for (const { part, slot, doc: text } of rows.parts) {
      if (part === SAVE_POINT) {
        if (slot === 0) doc["state"] = parse(text);
        else if (slot === 1) doc["parent_states"] = parse(text);
        continue;
      }
      if (slot === HEADER_SLOT) {
        const h = parse(text);
        if (typeof h !== "object" || h === null || Array.isArray(h)) torn(`has a fan-out entry header that is not a mapping`);
        entries.push({ header: h as Record<string, unknown>, instances: [] });
        continue;
      }
      const e = entries[entries.length - 1];
      if (e === undefined || slot !== e.instances.length) torn(`has fan-out instance ${slot} out of place`);
      e!.instances.push(parse(text));
    }
    if (!("state" in doc) || !("parent_states" in doc)) torn("is missing its state");
    if (entries.length > 0) {
      doc["fan_out_progress"] = entries.map((e) => {
        if (e.header["instance_count"] !== e.instances.length) {
          torn(`has ${e.instances.length} of the ${String(e.header["instance_count"])} instances of fan-out "${String(e.header["fan_out_node_name"])}"`);
        }
        return { ...e.header, instances: e.instances };
      });
    }
  } catch (cause) {
    if (cause instanceof CheckpointRecordInvalidError) throw cause;
    throw new CheckpointRecordInvalidError(`the stored record cannot be decoded (${messageOf(cause)})`, { cause });
  }
  return fromRecordDocument(doc);
}
