import { expect } from "chai";
import fc from "fast-check";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  END,
  GraphBuilder,
  stateSchema,
  type CompiledGraph,
  type NodeContext,
  type NodeExecutionContext,
  type NodeKind,
  type StateRecord,
  type StateSpec,
} from "../../src/graph/index.ts";
import { InMemoryCheckpointer, SqliteCheckpointer, type Checkpointer, type CheckpointFilter, type CheckpointRecord, type CheckpointSummary, type SaveContext } from "../../src/checkpoint/index.ts";
import { beginFanOutCheckpoint, compareAndSave } from "../../src/internal.ts";
import { PostgresCheckpointer } from "../../src/postgres/index.ts";
import { freshTable, sharedPool } from "../../harness/postgres-server.ts";
import { tempDir as exitCleanedTempDir } from "../support/temp-dir.ts";

export type Graph = CompiledGraph<StateRecord, unknown>;
export type Body = (s: Readonly<StateRecord>, ctx: NodeContext) => unknown;

/** A temp directory under os.tmpdir(), removed by `cleanup()`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = exitCleanedTempDir("oa-checkpoint-");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The backends the shared suite runs against. */
export interface Backend {
  readonly name: string;
  /** A fresh, empty checkpointer. */
  make(): Checkpointer;
  /** Close / remove what `make` created. */
  cleanup(): void;
}

export function backends(): Backend[] {
  let tmp: { dir: string; cleanup: () => void } | undefined;
  const opened: SqliteCheckpointer[] = [];
  let n = 0;
  return [
    { name: "InMemoryCheckpointer", make: () => new InMemoryCheckpointer(), cleanup: () => {} },
    {
      name: "SqliteCheckpointer",
      make: () => {
        tmp ??= tempDir();
        const cp = new SqliteCheckpointer(join(tmp.dir, `cp-${n++}.db`));
        opened.push(cp);
        return cp;
      },
      cleanup: () => {
        for (const cp of opened.splice(0)) cp.close();
        tmp?.cleanup();
        tmp = undefined;
      },
    },
    // A real server (harness/postgres-server.ts: OA_PG_URL; required under CI), fresh tables per checkpointer.
    { name: "PostgresCheckpointer", make: () => new PostgresCheckpointer(sharedPool(), { table: freshTable("cp") }), cleanup: () => {} },
  ];
}

/** A checkpointer wrapper recording every save (a deep copy of the record) and its context. */
export class RecordingCheckpointer implements Checkpointer {
  readonly inner: Checkpointer;
  readonly saves: { invocationId: string; record: CheckpointRecord; context: SaveContext | undefined }[] = [];
  failSaveAt: number | undefined;
  constructor(inner: Checkpointer) {
    this.inner = inner;
  }
  get supportsStateMigration(): boolean {
    return this.inner.supportsStateMigration !== false;
  }
  get backendName(): string | undefined {
    return this.inner.backendName;
  }
  async save(id: string, record: CheckpointRecord, context?: SaveContext): Promise<void> {
    if (this.failSaveAt !== undefined && this.saves.length === this.failSaveAt) throw new Error("disk full");
    this.saves.push({ invocationId: id, record: structuredClone(record), context });
    await this.inner.save(id, record, context);
  }
  /** A resume's claim: passed through, not recorded (not a completed-event save). */
  compareAndSave(id: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    return compareAndSave(this.inner, id, expected, record);
  }
  load(id: string): Promise<CheckpointRecord | undefined> {
    return this.inner.load(id);
  }
  list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    return this.inner.list(filter);
  }
  delete(id: string): Promise<void> {
    return this.inner.delete(id);
  }
  /** `"ns/…/node"` of every position of save `i`. */
  paths(i: number): string[] {
    return this.saves[i]!.record.completedPositions.map((p) => [...p.namespace, p.nodeName].join("/"));
  }
}

/** A linear graph: nodes run in order, the last routes to END. */
export function chain(fields: StateSpec["fields"], nodes: [string, Body | NodeKind][], name = "graph", schemaVersion?: string): Graph {
  const b = new GraphBuilder(stateSchema({ fields, ...(schemaVersion !== undefined ? { schemaVersion } : {}) }));
  nodes.forEach(([n, body], i) => {
    if (typeof body === "function") b.addNode(n, async (s, ctx) => (await body(s, ctx)) as StateRecord);
    else b.addNode(n, body);
    b.addEdge(n, i + 1 < nodes.length ? nodes[i + 1]![0] : END);
  });
  return b.setEntry(nodes[0]![0]).compile({ name, onWarning: () => {} }) as unknown as Graph;
}

/** A node body that fails while `flaky.fail` is true. */
export function flaky(update: StateRecord, log?: string[], name?: string): Body & { fail: boolean } {
  const fn = (() => {
    log?.push(name ?? "flaky");
    if (fn.fail) throw new Error("transient failure");
    return update;
  }) as unknown as Body & { fail: boolean };
  fn.fail = true;
  return fn;
}

/** A node body logging its name and returning `update`. */
export function logged(log: string[], name: string, update: StateRecord | ((s: Readonly<StateRecord>) => StateRecord)): Body {
  return (s) => {
    log.push(name);
    return typeof update === "function" ? update(s) : update;
  };
}

/** Expect `f` to throw; return what it threw. */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  expect.fail("expected a throw");
}

/** Expect `p` to reject; return the error. */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(Error);
    return e as Error & Record<string, unknown>;
  }
  expect.fail("expected a rejection");
}

/**
 * A minimal fan-out node kind using the checkpoint seam (the real fan-out lives in
 * `src/pipeline/fan-out.ts`): runs `sub` once per element of `itemsField` (serially or all at
 * once), collects `collectField` into `targetField`; with `collect`, failures go to `errorsField`.
 */
export function seamFanOut(options: {
  sub: Graph;
  itemsField: string;
  itemField: string;
  collectField: string;
  targetField: string;
  errorsField?: string;
  /** Parent field → subgraph field, one value per successful instance (null when absent). */
  extraOutputs?: Record<string, string>;
  concurrent?: boolean;
  /** Throws after instance `abortAfter` recorded its contribution (a simulated crash). */
  abortAfter?: number;
  /** Receives `"<enclosing fan_out_index or ->:<instance>"` for every instance actually run. */
  executed?: string[];
}): NodeKind<StateRecord, StateRecord> {
  return {
    kind: "fan_out",
    subgraphs: [options.sub],
    async run(state: Readonly<StateRecord>, ctx: NodeExecutionContext<StateRecord>): Promise<StateRecord> {
      const items = state[options.itemsField] as readonly unknown[];
      const cp = beginFanOutCheckpoint(ctx, items.length);
      const results: { value: unknown; error: boolean; extra?: Readonly<Record<string, unknown>> }[] = new Array(items.length);
      const extraOf = (final: Readonly<StateRecord>): Record<string, unknown> | undefined =>
        options.extraOutputs && Object.fromEntries(Object.entries(options.extraOutputs).map(([p, s]) => [p, final[s] ?? null]));
      const one = async (i: number): Promise<void> => {
        const saved = cp?.completed.get(i);
        if (saved) {
          results[i] = { value: saved.result, error: saved.resultIsError, ...(saved.extraOutputs ? { extra: saved.extraOutputs } : {}) };
          return;
        }
        options.executed?.push(`${ctx.fanOutIndex ?? "-"}:${i}`);
        cp?.instanceStarted(i);
        let contribution: { result: unknown; resultIsError: boolean; extraOutputs?: Record<string, unknown> };
        try {
          const final = await ctx.runSubgraph(options.sub, { [options.itemField]: items[i] }, { fanOutIndex: i });
          const extra = extraOf(final);
          contribution = { result: final[options.collectField] ?? null, resultIsError: false, ...(extra ? { extraOutputs: extra } : {}) };
        } catch (e) {
          if (options.errorsField === undefined) throw e;
          contribution = { result: { fan_out_index: i, message: (e as Error).message }, resultIsError: true };
        }
        results[i] = { value: contribution.result, error: contribution.resultIsError, ...(contribution.extraOutputs ? { extra: contribution.extraOutputs } : {}) };
        await cp?.instanceCompleted(i, contribution);
        if (options.abortAfter === i) throw new Error(`simulated crash after instance ${i}`);
      };
      if (options.concurrent) {
        const settled = await Promise.allSettled(items.map((_, i) => one(i)));
        const failed = settled.find((x) => x.status === "rejected");
        if (failed) throw failed.reason;
      }
      else for (let i = 0; i < items.length; i++) await one(i);
      const update: StateRecord = { [options.targetField]: results.filter((r) => !r.error).map((r) => r.value) };
      if (options.errorsField !== undefined) update[options.errorsField] = results.filter((r) => r.error).map((r) => r.value);
      for (const p of Object.keys(options.extraOutputs ?? {})) update[p] = results.filter((r) => !r.error).map((r) => r.extra?.[p] ?? null);
      return update;
    },
  };
}

/**
 * Run `make`'s property once per backend (a fresh checkpointer per property run): in memory with
 * `memoryRuns` runs, on SQLite files in a temp directory with `sqliteRuns`; seeds fixed.
 */
export function itOnBothBackends<Ts extends unknown[]>(
  make: (checkpointer: () => Checkpointer) => fc.IAsyncProperty<Ts>,
  runs: { readonly memory: number; readonly sqlite: number; readonly seed: number },
): void {
  it("InMemoryCheckpointer", async () => {
    await fc.assert(make(() => new InMemoryCheckpointer()), { numRuns: runs.memory, seed: runs.seed });
  });

  it("SqliteCheckpointer", async () => {
    const tmp = tempDir();
    const opened: SqliteCheckpointer[] = [];
    let n = 0;
    try {
      await fc.assert(
        make(() => {
          const cp = new SqliteCheckpointer(join(tmp.dir, `p-${n++}.db`));
          opened.push(cp);
          return cp;
        }),
        { numRuns: runs.sqlite, seed: runs.seed + 1 },
      );
    } finally {
      for (const cp of opened) cp.close();
      tmp.cleanup();
    }
  });
}
