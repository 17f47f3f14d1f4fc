/**
 * Temp directories for tests, removed when the test process exits (a run that leaves folders in
 * the shared /tmp is a defect: hundreds of them accumulated across runs before this helper).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const created = new Set<string>();
let hooked = false;

/** A fresh directory under the OS temp dir whose name starts with `prefix`; removed at exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.add(dir);
  if (!hooked) {
    hooked = true;
    process.once("exit", removeTempDirs);
  }
  return dir;
}

/** Remove every directory {@link tempDir} made so far (also runs at process exit). */
export function removeTempDirs(): void {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
  created.clear();
}
