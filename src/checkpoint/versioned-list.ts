/**
 * A fixed-length list whose past versions stay readable, so a checkpoint record can hold "the list
 * as of this save" without copying it (pipeline-utilities §10.2 records are full snapshots; a
 * fan-out's `instances` changes one slot at a time, and copying all N slots on each of its ~2N saves
 * made checkpointing a large fan-out quadratic).
 *
 * Each slot keeps the values written to it, stamped with the version they were written in.
 * `set` and `snapshot` are O(1); a snapshot is materialized (O(N)) the first time it is read, and
 * only then — a backend that keeps the record as it is (in memory) never pays for it.
 */
export class VersionedList<T> {
  /** Per slot: the versions it was written in, ascending. */
  readonly #stamps: number[][];
  /** Per slot: the value written in the matching version. */
  readonly #values: T[][];
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
    }
  }

  /** Seal the current version; returns a reader of it (a frozen array, built on first call). */
  snapshot(): () => readonly T[] {
    const at = this.#version++;
    let copy: readonly T[] | undefined;
    return () => (copy ??= Object.freeze(this.#values.map((vals, i) => vals[lastAtOrBefore(this.#stamps[i]!, at)]!)));
  }
}

function lastAtOrBefore(stamps: readonly number[], version: number): number {
  let k = stamps.length - 1;
  while (k > 0 && stamps[k]! > version) k--;
  return k;
}
