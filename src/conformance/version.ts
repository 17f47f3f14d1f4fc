/**
 * Version pinning (conformance-adapter §4.4, §8.5). The adapter's conformance-adapter version is
 * kept in package.json (`openarmature.conformanceAdapterVersion`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./package-root.ts";
import { FixtureSchemaInvalid, FixtureVersionUnsupported, type FixtureLocation } from "./errors.ts";

interface PackageMeta {
  version: string;
  openarmature: { specVersion: string; conformanceAdapterVersion: string };
}

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as PackageMeta;

export const ADAPTER_VERSION: string = pkg.openarmature.conformanceAdapterVersion;
export const SPEC_VERSION: string = pkg.openarmature.specVersion;
export const PACKAGE_VERSION: string = pkg.version;

function parse(v: string): [number, number, number] | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function compareVersions(a: string, b: string): number {
  const pa = parse(a), pb = parse(b);
  if (!pa || !pb) throw new RangeError(`not a version: ${!pa ? a : b}`);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  return 0;
}

/** Throws fixture_version_unsupported when `declared` is above the adapter's version. */
export function checkConformanceVersion(declared: unknown, where: FixtureLocation, adapter: string = ADAPTER_VERSION): void {
  if (declared === undefined) return;
  if (typeof declared !== "string" || parse(declared) === null) {
    throw new FixtureSchemaInvalid("'conformance_version' must be a version string such as \"0.48.0\"", where);
  }
  if (compareVersions(declared, adapter) > 0) throw new FixtureVersionUnsupported(declared, adapter, where);
}
