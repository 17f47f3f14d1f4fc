/**
 * Signal descriptors (suspension §4): `{ signalId, metadata? }`, attached at `suspend()`, persisted
 * on the paused-invocation record, returned on the suspended outcome and carried by the
 * `suspended` node event.
 *
 * The engine only round-trips them: `signalId` must be a non-empty string, `metadata` (optional) a
 * mapping of structured-cloneable data; both are copied and frozen at `suspend()`, so later
 * mutation of the caller's objects cannot alter what is persisted. Typed metadata is the
 * application's business (validate it with zod or similar on the other side).
 *
 * {@link toDescriptorDocument} / {@link fromDescriptorDocument} convert to and from the spec's field
 * names (`signal_id`), the portable form records and fixtures use.
 */

/** Optional structured payload of a descriptor (opaque to the engine). */
export type SignalMetadata = Readonly<Record<string, unknown>>;

/** §4 signal descriptor. */
export interface SignalDescriptor<M extends SignalMetadata = SignalMetadata> {
  /** Correlation token the runtime uses to route the awaited signal back (required, non-empty). */
  readonly signalId: string;
  /** Application-defined data (a mapping); absent when none was given. */
  readonly metadata?: M;
}

/** The descriptor in the spec's field names. */
export interface SignalDescriptorDocument {
  readonly signal_id: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function deepFreeze<T>(v: T): T {
  if (typeof v !== "object" || v === null || Object.isFrozen(v) || ArrayBuffer.isView(v)) return v;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}

/** Validate, copy and freeze a descriptor. Throws `TypeError` on a malformed one. */
export function normalizeDescriptor<M extends SignalMetadata>(d: SignalDescriptor<M>): SignalDescriptor<M>;
export function normalizeDescriptor(d: unknown): SignalDescriptor;
export function normalizeDescriptor(d: unknown): SignalDescriptor {
  if (!isMapping(d)) throw new TypeError("a signal descriptor must be an object { signalId, metadata? }");
  const id = d["signalId"];
  if (typeof id !== "string" || id.length === 0) throw new TypeError("a signal descriptor needs a non-empty string signalId");
  const extra = Object.keys(d).filter((k) => k !== "signalId" && k !== "metadata");
  if (extra.length > 0) throw new TypeError(`a signal descriptor has only signalId and metadata (got ${extra.join(", ")})`);
  const m = d["metadata"];
  if (m === undefined) return Object.freeze({ signalId: id });
  if (!isMapping(m)) throw new TypeError("signal descriptor metadata must be a mapping");
  let copy: Record<string, unknown>;
  try {
    copy = structuredClone(m);
  } catch (cause) {
    throw new TypeError(`signal descriptor metadata must be structured-cloneable data (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
  return Object.freeze({ signalId: id, metadata: deepFreeze(copy) });
}

/** The descriptor in the spec's field names (values shared). */
export function toDescriptorDocument(d: SignalDescriptor): SignalDescriptorDocument {
  return d.metadata === undefined ? { signal_id: d.signalId } : { signal_id: d.signalId, metadata: d.metadata };
}

/** Read a descriptor document (`{signal_id, metadata?}`). Throws `TypeError` on a malformed one. */
export function fromDescriptorDocument(doc: unknown): SignalDescriptor {
  if (!isMapping(doc)) throw new TypeError("a descriptor document must be a mapping");
  const { signal_id, metadata, ...rest } = doc;
  if (Object.keys(rest).length > 0) throw new TypeError(`a descriptor document has only signal_id and metadata (got ${Object.keys(rest).join(", ")})`);
  return normalizeDescriptor(metadata === undefined ? { signalId: signal_id } : { signalId: signal_id, metadata });
}

/** Is `x` a (normalized or not) {@link SignalDescriptor}? */
export function isSignalDescriptor(x: unknown): x is SignalDescriptor {
  return isMapping(x) && typeof x["signalId"] === "string" && (x["metadata"] === undefined || isMapping(x["metadata"]));
}

/**
 * §8.2 / §8.3: the descriptor bubbled up from a fan-out instance or a parallel branch, with
 * `fan_out_index` / `branch_name` written into its metadata (the engine's annotation wins over a
 * same-named application key).
 */
export function annotateDescriptor(d: SignalDescriptor, where: { readonly fanOutIndex?: number; readonly branchName?: string }): SignalDescriptor {
  const extra: Record<string, unknown> = {};
  if (where.fanOutIndex !== undefined) extra["fan_out_index"] = where.fanOutIndex;
  if (where.branchName !== undefined) extra["branch_name"] = where.branchName;
  if (Object.keys(extra).length === 0) return d;
  return Object.freeze({ signalId: d.signalId, metadata: Object.freeze({ ...(d.metadata ?? {}), ...extra }) });
}
