/**
 * Running fixtures: load, version-check, normalize, and run every case, producing one result
 * record per case (a fixture that fails before its cases are known gives one record, case null).
 * Used by both `openarmature conform` and the mocha entry.
 */
import { CapabilitySkip, ConformanceError, DEFAULT_MAX_FIXTURE_BYTES } from "./errors.ts";
import type { DiscoveredFixture } from "./discovery.ts";
import { normalizeFixture, isMapping, type CaseSpec } from "./fixture-model.ts";
import { runCase, type RunCaseOptions } from "./interpreter.ts";
import type { DirectiveRegistry } from "./registry.ts";
import { FixtureSource } from "./source.ts";
import { checkConformanceVersion } from "./version.ts";
import type { DeprecationUse } from "./deprecation.ts";

export type CaseStatus = "passed" | "failed" | "skipped";

/** One record of the `--json` report. Keep stable: tools outside the project read it. */
export interface CaseResult {
  readonly fixture: string;
  readonly case: string | null;
  readonly status: CaseStatus;
  readonly category: string | null;
  readonly message: string | null;
  readonly durationMs: number;
  /** Each use of retired vocabulary the case made (the `legacy` bundle), in document order. */
  readonly deprecations: ReadonlyArray<DeprecationUse>;
}

/** Project-defined categories beside §9's (documented in ARCHITECTURE.md). */
export const ADAPTER_DEFECT = "adapter_defect";
export const CASE_TIMEOUT = "case_timeout";

export interface RunOptions extends Omit<RunCaseOptions, "deprecations"> {
  /** A case running longer than this fails with `case_timeout` (default 60 s). */
  readonly caseTimeoutMs?: number;
}

/** A fixture prepared for running: its cases, or the error that stopped it before they were known. */
export interface PreparedFixture {
  readonly fixture: DiscoveredFixture;
  readonly cases: ReadonlyArray<CaseSpec>;
  readonly error: Error | null;
}

export interface PrepareOptions {
  /** A fixture file larger than this fails with `fixture_too_large` before it is read (default 4 MiB). */
  readonly maxFixtureBytes?: number;
}

/** Load one fixture under the default limits; never throws (see {@link prepareFixtureWith}). */
export function prepareFixture(fixture: DiscoveredFixture): PreparedFixture {
  return prepareFixtureWith(fixture, {});
}

/** Load one fixture; never throws: a fixture that cannot be loaded carries its error. */
export function prepareFixtureWith(fixture: DiscoveredFixture, options: PrepareOptions): PreparedFixture {
  try {
    const source = FixtureSource.read(fixture.absPath, fixture.displayPath, options.maxFixtureBytes ?? DEFAULT_MAX_FIXTURE_BYTES);
    if (isMapping(source.data)) checkConformanceVersion(source.data.conformance_version, source.locate(["conformance_version"]));
    const cases = normalizeFixture({ source, capability: fixture.capability, id: fixture.id });
    return { fixture, cases, error: null };
  } catch (err) {
    return { fixture, cases: [], error: err as Error };
  }
}

/** The test name of a case: `<capability>/<NNN-name> › <case>` (the fixture's name for a single case). */
export function caseTitle(fixtureId: string, caseName: string | null): string {
  const short = fixtureId.slice(fixtureId.indexOf("/") + 1);
  return `${fixtureId} › ${caseName ?? short}`;
}

/** Run one case; never throws. */
export async function runCaseToResult(spec: CaseSpec, registry: DirectiveRegistry, options: RunOptions = {}): Promise<CaseResult> {
  const started = performance.now();
  const deprecations: DeprecationUse[] = [];
  const done = (status: CaseStatus, category: string | null, message: string | null): CaseResult => ({
    fixture: spec.fixture.id,
    case: spec.name,
    status,
    category,
    message,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    deprecations,
  });
  const timeoutMs = options.caseTimeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const abort = new AbortController();
  try {
    await Promise.race([
      runCase(spec, registry, { ...options, signal: abort.signal, deprecations }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new CaseTimeout(timeoutMs);
          abort.abort(err); // stop the case's calls: nothing keeps running after its result
          reject(err);
        }, timeoutMs);
        timer.unref();
      }),
    ]);
    return done("passed", null, null);
  } catch (err) {
    return errorResult(err, done);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

class CaseTimeout extends Error {
  constructor(ms: number) {
    super(`case did not finish within ${ms} ms`);
  }
}

function errorResult(err: unknown, done: (s: CaseStatus, c: string | null, m: string | null) => CaseResult): CaseResult {
  if (err instanceof CapabilitySkip) return done("skipped", null, err.reason);
  if (err instanceof ConformanceError) return done("failed", err.category, err.message);
  if (err instanceof CaseTimeout) return done("failed", CASE_TIMEOUT, err.message);
  const e = err as Error;
  return done("failed", ADAPTER_DEFECT, `${e?.name ?? "Error"}: ${e?.message ?? String(err)}\n${e?.stack ?? ""}`);
}

/** The record for a fixture that failed before its cases were known. */
export function fixtureErrorResult(fixture: DiscoveredFixture, err: Error): CaseResult {
  return errorResult(err, (status, category, message) => ({
    fixture: fixture.id,
    case: null,
    status,
    category,
    message,
    durationMs: 0,
    deprecations: [],
  }));
}
