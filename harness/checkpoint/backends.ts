/**
 * The Checkpointer backends a fixture can name (conformance-adapter §5.6 `checkpointer:`,
 * pipeline-utilities §10.13), built from the library's real backends:
 *
 * | fixture value | backend |
 * |---|---|
 * | `in_memory` | `InMemoryCheckpointer` |
 * | `sqlite` | `SqliteCheckpointer` on a fresh database file in a temp directory ({@link SqliteFile}) |
 * | `postgres` | `PostgresCheckpointer` on fresh tables of the server of `harness/postgres-server.ts` (`OA_PG_URL`) |
 * | `{kind: in_memory_batched, fan_out_internal_save_batching: {flush_every: N}}` | `BatchingCheckpointer` (§10.11.4) over `InMemoryCheckpointer`, flushing every N fan-out internal saves |
 *
 * Any other name is `harness_primitive_missing`.
 *
 * **Backend override (explicit).** With the environment variable {@link BACKEND_OVERRIDE_ENV}
 * set to `in_memory`, `sqlite` or `postgres`, every named backend's base store is that one instead (a batched
 * backend keeps its batching over the chosen store). Unset — the default — each fixture runs
 * against the backend it names. `test/checkpoint/fixtures-both-backends.test.ts` uses it to run
 * every checkpoint fixture against both stores and compare the results.
 */
import { HarnessPrimitiveMissing, type FixtureLocation } from "../../src/conformance/errors.ts";
import { BatchingCheckpointer, InMemoryCheckpointer, type Checkpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { SqliteFile } from "./sqlite-file.ts";
import { PostgresCheckpointer } from "../../src/postgres/index.ts";
import { freshTable, sharedPool } from "../postgres-server.ts";

/** The environment variable selecting the base store of every named backend (`in_memory` | `sqlite`). */
export const BACKEND_OVERRIDE_ENV = "OA_CHECKPOINT_BACKEND";

/** The base stores this adapter provides. */
export const BASE_BACKENDS = ["in_memory", "sqlite", "postgres"] as const;
export type BaseBackend = (typeof BASE_BACKENDS)[number];

/** A parsed `checkpointer:` value. */
export interface BackendSpec {
  /** The base store the fixture names. */
  readonly base: BaseBackend;
  /** §10.11.4 batching of fan-out internal saves, when the fixture asks for it. */
  readonly batching?: { readonly flushEvery: number };
  /** The value as written (diagnostics). */
  readonly written: string;
}

/** The `checkpointer:` value schema: a backend name, or `{kind, ...options}`. */
export const CHECKPOINTER_SCHEMA = {
  oneOf: [
    { type: "string", minLength: 1 },
    {
      type: "object",
      required: ["kind"],
      additionalProperties: false,
      properties: {
        kind: { type: "string", minLength: 1 },
        fan_out_internal_save_batching: {
          type: "object",
          required: ["flush_every"],
          additionalProperties: false,
          properties: { flush_every: { type: "integer", minimum: 1 } },
        },
      },
    },
  ],
} as const;

type CheckpointerValue = string | { kind: string; fan_out_internal_save_batching?: { flush_every: number } };

/** Parse a `checkpointer:` value; a backend this adapter does not provide is `harness_primitive_missing`. */
export function parseBackend(value: CheckpointerValue, where: FixtureLocation): BackendSpec {
  const kind = typeof value === "string" ? value : value.kind;
  const batching = typeof value === "string" ? undefined : value.fan_out_internal_save_batching;
  const missing = (what: string): never => {
    throw new HarnessPrimitiveMissing(`checkpointer: ${kind}`, what, where);
  };
  switch (kind) {
    case "in_memory":
    case "sqlite":
    case "postgres":
      if (batching !== undefined) missing(`backend '${kind}' takes no fan_out_internal_save_batching (use kind: in_memory_batched)`);
      return { base: kind, written: kind };
    case "in_memory_batched":
      if (batching === undefined) missing("checkpointer kind 'in_memory_batched' needs fan_out_internal_save_batching: {flush_every: <n>}");
      return { base: "in_memory", batching: { flushEvery: batching!.flush_every }, written: kind };
    default:
      return missing(`this adapter provides no Checkpointer backend named '${kind}' (it provides ${[...BASE_BACKENDS, "in_memory_batched"].join(", ")})`);
  }
}

/** The base-store override in effect (`undefined`: each fixture's own backend). */
export function backendOverride(where: FixtureLocation): BaseBackend | undefined {
  const v = process.env[BACKEND_OVERRIDE_ENV];
  if (v === undefined || v === "") return undefined;
  if (!(BASE_BACKENDS as readonly string[]).includes(v)) {
    throw new HarnessPrimitiveMissing(`${BACKEND_OVERRIDE_ENV}=${v}`, `${BACKEND_OVERRIDE_ENV} must be one of ${BASE_BACKENDS.join(", ")}`, where);
  }
  return v as BaseBackend;
}

/** An opened backend for one case. */
export interface OpenedBackend {
  /** What the engine saves to (the batching wrapper, when batched). */
  readonly checkpointer: Checkpointer;
  /** The base store's name (after any override). */
  readonly base: BaseBackend;
  /** The batching wrapper, when the fixture asked for batching. */
  readonly batching: BatchingCheckpointer | undefined;
  /** The durable record of `invocationId` (with batching: the last flushed one, not the buffer). */
  durableLoad(invocationId: string): Promise<CheckpointRecord | undefined>;
  /** Release what the backend holds (closes and deletes a SQLite file). */
  close(): void;
}

/** How many Postgres checkpointers this process opened (tests check the override took effect). */
export const openedPostgres = { count: 0 };

/** Open `spec` (with `base` overriding its store, when given). */
export function openBackend(spec: BackendSpec, base: BaseBackend = spec.base): OpenedBackend {
  let store: Checkpointer;
  let close = (): void => {};
  if (base === "sqlite") {
    const file = SqliteFile.open();
    store = file.checkpointer;
    close = () => file.close();
  } else if (base === "postgres") {
    store = new PostgresCheckpointer(sharedPool(), { table: freshTable("conf_cp") });
    openedPostgres.count++;
  } else store = new InMemoryCheckpointer();
  const batching = spec.batching !== undefined ? new BatchingCheckpointer(store, { flushEvery: spec.batching.flushEvery }) : undefined;
  return {
    checkpointer: batching ?? store,
    base,
    batching,
    durableLoad: (id) => store.load(id),
    close,
  };
}
