/**
 * State immutability (graph-engine §2 *Node*, §6 *State immutability*).
 *
 * TypeScript has no value types, so the engine defends against accidental mutation by freezing:
 * every state record a node, edge or observer receives is frozen, and every plain array / plain
 * object entering state (initial values, defaults, node updates) is deep-frozen once, in place.
 * Containers built by reducers are frozen shallowly — their elements were frozen on the way in —
 * so a merge costs O(size of the update), never O(size of the state). Non-plain objects (class
 * instances, Dates, Maps, clients) are left untouched.
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

/** Freeze a container produced by a reducer (its contents are already frozen). */
export function freezeShallow<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value) && isPlainContainer(value)) {
    Object.freeze(value);
  }
  return value;
}
