/**
 * What the sessions harness records per call (conformance-adapter §5.6, §6.2), as typed facets on
 * the call's observation.
 */
import { Facet } from "../../src/conformance/observation.ts";
import type { SessionRecord, SessionStoreStats } from "../../src/sessions/index.ts";

/** The library's report of one session-bound call, and what the in-memory store saw. */
export interface SessionCall {
  /** The session the call was bound to (`undefined`: none supplied). */
  readonly sessionId: string | undefined;
  /** Whether a SessionStore was registered on the graph. */
  readonly storeRegistered: boolean;
  /** What `invoke()` reported (absent when the call raised). */
  readonly reported:
    | {
        readonly loadedSessionState: Readonly<Record<string, unknown>> | null;
        readonly loadedRecord: SessionRecord | null;
        readonly savedSession: { readonly savePoint: string; readonly state: Readonly<Record<string, unknown>>; readonly schemaVersion: string } | null;
      }
    | undefined;
  /** §6.2: the store's `load()` / `save()` / … calls during the call (0s without a store). */
  readonly stats: SessionStoreStats;
  /** The record the store holds for the call's session once the call returned (`null`: none). */
  readonly recordAfter: SessionRecord | null;
  /** Every record the store held before / after the call (for `store_untouched`). */
  readonly storeBefore: ReadonlyMap<string, SessionRecord>;
  readonly storeAfter: ReadonlyMap<string, SessionRecord>;
  /** §6.2 explicit saves the call's node bodies requested, with the state each committed. */
  readonly explicitSaves: readonly Readonly<Record<string, unknown>>[];
}
export const SessionCallFacet = new Facet<SessionCall>("session-bound call");

/** Explicit saves recorded while the call runs (filled by `explicit_save_session`). */
export const ExplicitSaves = new Facet<Array<Readonly<Record<string, unknown>>>>("explicit session saves");
