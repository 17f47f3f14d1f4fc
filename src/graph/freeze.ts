/**
 * State immutability (graph-engine §2 *Node*, §6 *State immutability*).
 *
 * TypeScript has no value types, so the engine defends against accidental mutation by freezing:
 * every state record a node, edge or observer receives is frozen. What the caller hands in (the
 * initial state, a resume payload) is copied at the boundary — plain arrays / plain objects become
 * deep-frozen copies, so the caller's own objects stay theirs and mutable; node updates and defaults
 * (values the engine already owns) are deep-frozen once, in place. Already-frozen subtrees are
 * shared, not copied or walked. Containers built by reducers are frozen shallowly — their elements
 * were frozen on the way in — so a merge costs O(size of the update), never O(size of the state).
 * Non-plain objects (class instances, Dates, Maps, clients) are kept by reference, untouched.
 */

function isPlainContainer(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Deep-freeze plain arrays/objects reachable from `value`; already-frozen subtrees are skipped. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  if (!isPlainContainer(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}

/** Deep-freeze the elements of `list`, not the list itself. */
export function deepFreezeElements(list: readonly unknown[]): void {
  for (let i = 0; i < list.length; i++) deepFreeze(list[i]);
}

/**
 * A deep-frozen copy of the plain arrays/objects reachable from `value` (what enters state from a
 * caller): already-frozen subtrees and non-plain objects are shared by reference, so a value the
 * engine already owns costs one `isFrozen` check. Cycles are preserved.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value) || !isPlainContainer(value)) return value;
  return copyContainer(value, new Map());
}

function copyInto(v: unknown, seen: Map<object, unknown>): unknown {
  if (typeof v !== "object" || v === null || Object.isFrozen(v) || !isPlainContainer(v)) return v;
  return seen.has(v) ? seen.get(v) : copyContainer(v, seen);
}

function copyContainer<T>(value: T & object, seen: Map<object, unknown>): T {
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copyInto(value[i], seen);
    return Object.freeze(out) as T;
  }
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  seen.set(value, out);
  for (const k of Object.keys(value)) {
    const v = copyInto((value as Record<string, unknown>)[k], seen);
    if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return Object.freeze(out) as T;
}

/** Freeze a container produced by a reducer (its contents are already frozen). */
export function freezeShallow<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value) && isPlainContainer(value)) {
    Object.freeze(value);
  }
  return value;
}
