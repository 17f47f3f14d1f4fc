/**
 * A fixed-length list whose past versions stay readable, so a checkpoint record can hold "the list
 * as of this save" without copying it (pipeline-utilities §10.2 records are full snapshots; a
 * fan-out's `instances` changes one slot at a time, and copying all N slots on each of its ~2N saves
 * made checkpointing a large fan-out quadratic).
 *
 * Each slot keeps the values written to it, stamped with the version they were written in.
 * `set` and `snapshot` are O(1); a snapshot is materialized (O(N)) the first time it is read, and
 * only then — a backend that keeps the record as it is (in memory) never pays for it. A backend
 * that stores the list apart (SQLite) asks instead which slots changed between two versions
 * ({@link VersionedList.changedBetween}, O(changes)) and reads just those ({@link VersionedList.at}).
 */
export class VersionedList<T> {
  /** Per slot: the versions it was written in, ascending. */
  readonly #stamps: number[][];
  /** Per slot: the value written in the matching version. */
  readonly #values: T[][];
  /** Change log, in write order: slot `#logSlots[k]` was first written in version `#logVersions[k]`. */
  readonly #logVersions: number[] = [];
  readonly #logSlots: number[] = [];
  #version = 0;

  constructor(initial: readonly T[]) {
    this.#stamps = initial.map(() => [0]);
    this.#values = initial.map((x) => [x]);
  }

  get length(): number {
    return this.#values.length;
  }

  /** The current value of slot `i` (`i` must be in range). */
  get(i: number): T {
    const vals = this.#values[i]!;
    return vals[vals.length - 1]!;
  }

  /** Write slot `i` (`i` must be in range). */
  set(i: number, x: T): void {
    const stamps = this.#stamps[i]!;
    const vals = this.#values[i]!;
    if (stamps[stamps.length - 1] === this.#version) vals[vals.length - 1] = x;
    else {
      stamps.push(this.#version);
      vals.push(x);
      this.#logVersions.push(this.#version);
      this.#logSlots.push(i);
    }
  }

  /** Seal the current version; returns a reader of it (a frozen array, built on first call). */
  snapshot(): VersionReader<T> {
    const at = this.#version++;
    let copy: readonly T[] | undefined;
    const read = (): readonly T[] => (copy ??= Object.freeze(this.#values.map((vals, i) => vals[lastAtOrBefore(this.#stamps[i]!, at)]!)));
    return Object.assign(read, { version: at });
  }

  /** Slot `i` as of sealed version `version`. */
  at(i: number, version: number): T {
    return this.#values[i]![lastAtOrBefore(this.#stamps[i]!, version)]!;
  }

  /**
   * The slots whose value may differ between sealed versions `from` and `to` (`from <= to`): those
   * written in a version after `from` and at most `to`, ascending, each once. O(writes in between).
   */
  changedBetween(from: number, to: number): number[] {
    const versions = this.#logVersions;
    let lo = 0;
    let hi = versions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (versions[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    const out = new Set<number>();
    for (let k = lo; k < versions.length && versions[k]! <= to; k++) out.add(this.#logSlots[k]!);
    return [...out].sort((a, b) => a - b);
  }
}

/** A reader of one sealed version of a {@link VersionedList}. */
export type VersionReader<T> = (() => readonly T[]) & { readonly version: number };

function lastAtOrBefore(stamps: readonly number[], version: number): number {
  let k = stamps.length - 1;
  while (k > 0 && stamps[k]! > version) k--;
  return k;
}
