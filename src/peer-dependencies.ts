/**
 * Optional peer dependencies (package.json `peerDependenciesMeta`): `openarmature/observability`
 * and `openarmature/langfuse` import the OpenTelemetry SDK and the Langfuse client, which a user
 * who never imports them never installs. Their package entries are guards
 * (`src/observability/entry.ts`, `src/observability/langfuse-entry.ts`) that check every peer the
 * entry loads before loading it, so a missing one is one error naming all of them and the
 * `npm install` command — not Node's bare "Cannot find package" for the first it met.
 */

/** A peer dependency and the version range package.json declares for it. */
export interface PeerDependency {
  readonly name: string;
  readonly range: string;
}

/** The peers `openarmature/observability` loads (its static imports; test/peer-dependencies.test.ts checks both lists). */
export const OBSERVABILITY_PEERS: ReadonlyArray<PeerDependency> = [
  { name: "@opentelemetry/api", range: "^1.9.0" },
  { name: "@opentelemetry/api-logs", range: "0.223.1" },
  { name: "@opentelemetry/sdk-trace-base", range: "^2.0.0" },
];

/** The peers `openarmature/langfuse` loads. */
export const LANGFUSE_PEERS: ReadonlyArray<PeerDependency> = [
  { name: "@langfuse/core", range: "5.11.1" },
  { name: "@langfuse/otel", range: "5.11.1" },
  { name: "@langfuse/tracing", range: "5.11.1" },
  { name: "@opentelemetry/api", range: "^1.9.0" },
  { name: "@opentelemetry/api-logs", range: "0.223.1" },
  { name: "@opentelemetry/sdk-trace-base", range: "^2.0.0" },
];

/**
 * The peer `openarmature/postgres` loads — not at import (a caller may hand a store its own
 * `pg.Pool`), but when a store first opens a pool from a URL or pool config.
 */
export const POSTGRES_PEERS: ReadonlyArray<PeerDependency> = [{ name: "pg", range: "^8.11.0" }];

/** Importing an entry (or using a part) whose optional peer dependencies are not installed. */
export class MissingPeerDependencyError extends Error {
  readonly code = "ERR_OPENARMATURE_MISSING_PEER";
  constructor(
    /** The entry imported, e.g. `openarmature/observability`. */
    readonly entry: string,
    /** Every peer of the entry that is not installed. */
    readonly missing: ReadonlyArray<PeerDependency>,
    options?: { cause?: unknown },
  ) {
    const names = missing.map((p) => p.name);
    const install = `npm install ${missing.map((p) => `${p.name}@${p.range}`).join(" ")}`;
    super(
      `${entry} needs the optional peer ${names.length === 1 ? "dependency" : "dependencies"} ${names.join(", ")}, ` +
        `which ${names.length === 1 ? "is" : "are"} not installed: run \`${install}\``,
      options,
    );
    this.name = "MissingPeerDependencyError";
  }
}

/**
 * Throw {@link MissingPeerDependencyError} naming every peer in `peers` that `resolve` (the guard's
 * `import.meta.resolve`, so resolution starts where the package is installed) cannot find.
 */
export function requirePeers(entry: string, peers: ReadonlyArray<PeerDependency>, resolve: (specifier: string) => string): void {
  const missing = peers.filter((p) => {
    try {
      resolve(p.name);
      return false;
    } catch (err) {
      if ((err as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") return true;
      throw err;
    }
  });
  if (missing.length > 0) throw new MissingPeerDependencyError(entry, missing);
}
