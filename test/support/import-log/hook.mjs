// Module-resolution hook (runs on Node's loader thread): appends "<parentURL> <resolved URL>" for
// every resolution to the file named by $OA_IMPORT_LOG. Used by test/entry-imports.test.ts.
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(process.env.OA_IMPORT_LOG, `${context.parentURL ?? "-"} ${resolved.url}\n`);
  return resolved;
}
