/** Test helpers: build fixtures in a temp root and run them through a private registry. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { normalizeFixture, type CaseSpec } from "../../src/conformance/fixture-model.ts";
import { FixtureSource } from "../../src/conformance/source.ts";
import { tempDir } from "../support/temp-dir.ts";

/** Write `{ "<capability>/<name>.yaml": text }` under a fresh root; returns the root. */
export function fixtureRoot(files: Record<string, string>): string {
  const root = tempDir("oa-spec-");
  for (const [rel, text] of Object.entries(files)) {
    const [cap, ...rest] = rel.split("/");
    const dir = join(root, cap as string, "conformance", ...rest.slice(0, -1));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, rest[rest.length - 1] as string), text);
  }
  return root;
}

/** Parse YAML text as a fixture of `capability` and normalize it. */
export function casesOf(text: string, capability = "graph-engine", id = `${capability}/900-test`): CaseSpec[] {
  const source = FixtureSource.parse(`${id}.yaml`, text);
  return normalizeFixture({ source, capability, id });
}

/** The error a function throws (fails the test when it does not throw). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the call to throw");
}

export async function rejected(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the promise to reject");
}
