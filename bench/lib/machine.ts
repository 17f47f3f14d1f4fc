/** Machine and version information recorded with the results. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";

export interface MachineInfo {
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  readonly arch: string;
  readonly cpuModel: string;
  readonly cpuCount: number;
  readonly totalMemGiB: number;
  readonly loadAverage: readonly number[];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpuCount: typeof os.availableParallelism === "function" ? os.availableParallelism() : cpus.length,
    totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

function packageVersion(root: URL, name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, root), "utf8")) as { version?: string };
    return pkg.version ?? "unknown";
  } catch {
    return "not installed";
  }
}

function git(root: URL, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

export interface VersionInfo {
  readonly openarmature: string;
  readonly "@langchain/langgraph": string;
  readonly "@langchain/core": string;
  readonly "@langchain/langgraph-checkpoint": string;
  readonly "@langchain/langgraph-checkpoint-sqlite": string;
  readonly "better-sqlite3": string;
  readonly gitCommit: string | undefined;
  /** `src/graph/` had uncommitted changes when measured (the numbers describe the working tree). */
  readonly srcGraphDirty: boolean | undefined;
  /** The same for every measured source directory (`src/pipeline/`: fan-out, `src/checkpoint/`). */
  readonly srcDirty: { readonly [dir: string]: boolean | undefined };
}

/** Source directories the scenarios measure. */
const MEASURED_SRC = ["src/graph", "src/pipeline", "src/checkpoint"] as const;

/** `root` is the project root URL (with a trailing slash). */
export function versionInfo(root: URL): VersionInfo {
  let own = "unknown";
  try {
    own = (JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { version?: string }).version ?? own;
  } catch {
    // keep "unknown"
  }
  const dirty = (dir: string): boolean | undefined => {
    const status = git(root, ["status", "--porcelain", "--", dir]);
    return status === undefined ? undefined : status.length > 0;
  };
  const srcDirty = Object.fromEntries(MEASURED_SRC.map((d) => [d, dirty(d)]));
  return {
    openarmature: own,
    "@langchain/langgraph": packageVersion(root, "@langchain/langgraph"),
    "@langchain/core": packageVersion(root, "@langchain/core"),
    "@langchain/langgraph-checkpoint": packageVersion(root, "@langchain/langgraph-checkpoint"),
    "@langchain/langgraph-checkpoint-sqlite": packageVersion(root, "@langchain/langgraph-checkpoint-sqlite"),
    "better-sqlite3": packageVersion(root, "better-sqlite3"),
    gitCommit: git(root, ["rev-parse", "--short", "HEAD"]),
    srcGraphDirty: srcDirty["src/graph"],
    srcDirty,
  };
}
