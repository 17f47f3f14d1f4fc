/**
 * `openarmature/postgres`: the Postgres backends, for several workers sharing one durable store —
 * {@link PostgresCheckpointer} (pipeline-utilities §10.1), {@link PostgresSessionStore}
 * (sessions §5) and {@link postgresPausedInvocationStore} (suspension §8.5). Needs the optional
 * peer dependency `pg` (node-postgres 8.x). See README.md "Postgres" and ARCHITECTURE.md.
 */
export { PostgresCheckpointer, postgresPausedInvocationStore, CHECKPOINT_SCHEMA, type PostgresCheckpointerOptions } from "./checkpointer.ts";
export { PostgresSessionStore, SESSION_SCHEMA, type PostgresSessionStoreOptions } from "./session-store.ts";
export { MAX_ID_BYTES, PostgresInputInvalidError, PostgresSchemaUnsupportedError, PostgresStoreUnavailableError } from "./errors.ts";
export { SCHEMA_TABLE, schemaVersionOf, type StoreSchema } from "./schema.ts";
export type { IdleConnectionErrorListener, PostgresClient, PostgresPool, PostgresPoolConfig, PostgresQueryResult, PostgresTarget } from "./connection.ts";
