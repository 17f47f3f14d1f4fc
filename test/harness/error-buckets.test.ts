/**
 * The §7 buckets of the stores' own categories, read from the errors real stores raise: a malformed id
 * is user-correctable (the caller sends another), a store file that cannot be used ends the turn as a
 * failed load or save does. Without an entry each fell to the `retryable_transient` default, and a
 * client retried a request that can never succeed.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryCheckpointer } from "../../src/checkpoint/index.ts";
import { SqliteCheckpointer } from "../../src/checkpoint/sqlite.ts";
import { categorizeTurnError } from "../../src/harness/index.ts";
import { InMemorySessionStore } from "../../src/sessions/index.ts";
import { SqliteSessionStore } from "../../src/sessions/sqlite.ts";

async function raised(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

describe("harness: §7 buckets of the stores' categories", () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), "oa-buckets-"))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("a malformed session or invocation id is user_correctable", async () => {
    const session = categorizeTurnError(await raised(() => new InMemorySessionStore().load(42 as unknown as string)));
    expect(session).to.include({ category: "session_invalid_id", bucket: "user_correctable" });
    const checkpoint = categorizeTurnError(await raised(() => new InMemoryCheckpointer().load(null as unknown as string)));
    expect(checkpoint).to.include({ category: "checkpoint_invalid_id", bucket: "user_correctable" });
  });

  it("a SQLite store on a directory is session_terminating", async () => {
    const sessions = categorizeTurnError(await raised(() => new SqliteSessionStore(dir)));
    expect(sessions).to.include({ category: "session_store_unavailable", bucket: "session_terminating" });
    const checkpoints = categorizeTurnError(await raised(() => new SqliteCheckpointer(dir)));
    expect(checkpoints).to.include({ category: "checkpoint_store_unavailable", bucket: "session_terminating" });
  });
});
