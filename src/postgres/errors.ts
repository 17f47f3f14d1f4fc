/**
 * The Postgres stores' project error categories (documented in README.md "Errors"):
 *
 * | category | raised |
 * |---|---|
 * | `postgres_store_unavailable` | the server could not be reached or the connection was lost during an operation (refused, reset, terminated, admin shutdown — SQLSTATE class 08 / 57P0x); **transient**: the operation's transaction rolled back, so nothing half-written is left and the same call may be retried. A save that fails so leaves the run's last committed record, which resumes |
 * | `postgres_schema_unsupported` | the store's tables were created by a newer version of the library (a higher schema version in `openarmature_schema`) or a table of the store's name is a foreign table; nothing is changed — upgrade the library or point the store at another table |
 * | `postgres_input_invalid` | a value the store cannot keep as given, refused before any query: an id (invocation / session / correlation id) over {@link MAX_ID_BYTES} UTF-8 bytes, or a NUL character or a lone UTF-16 surrogate in an id or another text column (Postgres `text` holds neither: the server would refuse the NUL, and a lone surrogate would be stored as U+FFFD — a different id); not transient — fix the value |
 *
 * Inside a run, a checkpoint save that fails with either is wrapped in `checkpoint_save_failed`
 * (pipeline-utilities §10.10) with this error as its `cause`, like any backend error.
 */
import { GraphRuntimeError, messageOf } from "../graph/index.ts";

declare module "../graph/errors.ts" {
  interface RuntimeErrorCategories {
    /** Project: the Postgres server is unreachable or the connection was lost mid-operation. */
    postgres_store_unavailable: true;
    /** Project: the store's schema is newer than this library, or its table is foreign. */
    postgres_schema_unsupported: true;
    /** Project: an id or text value the store cannot keep as given (too long, a NUL, a lone surrogate). */
    postgres_input_invalid: true;
  }
}

/** `postgres_store_unavailable` (see the module comment). Transient. */
export class PostgresStoreUnavailableError extends GraphRuntimeError {
  override name = "PostgresStoreUnavailableError";
  readonly category = "postgres_store_unavailable" as const;
  /** The operation may be retried: its transaction rolled back. */
  readonly transient = true;
  /** The store's table. */
  readonly table: string;
  constructor(table: string, during: string, cause: unknown) {
    super(
      `Postgres store (table "${table}") is unavailable while ${during}: ${messageOf(cause)}; ` +
        "the transaction rolled back (nothing was half-written) — check the server and retry",
      {},
      { cause },
    );
    this.table = table;
  }
}

/** `postgres_schema_unsupported` (see the module comment). */
export class PostgresSchemaUnsupportedError extends GraphRuntimeError {
  override name = "PostgresSchemaUnsupportedError";
  readonly category = "postgres_schema_unsupported" as const;
  readonly transient = false;
  /** The store's table. */
  readonly table: string;
  constructor(table: string, detail: string) {
    super(`Postgres store table "${table}" cannot be used: ${detail}`);
    this.table = table;
  }
}

/** The longest id (invocation, session or correlation id) the Postgres stores accept, in UTF-8 bytes. */
export const MAX_ID_BYTES = 1024;

/** How many characters of an id a message quotes (then "…"). */
const QUOTED_ID_CHARS = 64;

/**
 * `id` for a message: JSON-quoted (control characters escaped), cut after 64 characters with "…" —
 * an id is caller input of any size, and a message should stay one readable line.
 */
export function quoteId(id: string): string {
  if (id.length <= QUOTED_ID_CHARS) return JSON.stringify(id);
  let cut = id.slice(0, QUOTED_ID_CHARS);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1); // do not split a surrogate pair
  return JSON.stringify(`${cut}…`);
}

/** `postgres_input_invalid` (see the module comment). Raised before any query. */
export class PostgresInputInvalidError extends GraphRuntimeError {
  override name = "PostgresInputInvalidError";
  readonly category = "postgres_input_invalid" as const;
  readonly transient = false;
  /** The store's table. */
  readonly table: string;
  /** The argument or record field that was refused (`"invocationId"`, `"sessionId"`, `"correlationId"`, …). */
  readonly field: string;
  /** What is wrong with it, in one phrase. */
  readonly reason: string;
  constructor(table: string, field: string, reason: string) {
    super(`Postgres store (table "${table}") cannot take ${field}: ${reason}; nothing was sent to the server`);
    this.table = table;
    this.field = field;
    this.reason = reason;
  }
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/**
 * Is `e` the connection failing (rather than a statement)? SQLSTATE class 08 (connection
 * exception), 57P01–57P03 (server shutting down / not accepting), a socket error, or node-postgres
 * reporting the connection ended.
 */
export function isConnectionError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || CONNECTION_CODES.has(code))) return true;
  return /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(e.message);
}
