/**
 * The shared checkpoint suite (pipeline-utilities §10): every expectation runs unchanged against
 * each in-core backend (§10.13).
 */
import { backends } from "./helpers.ts";
import { protocolSuite } from "./shared/protocol.ts";
import { savingSuite } from "./shared/saving.ts";
import { resumeSuite } from "./shared/resume.ts";
import { errorsSuite } from "./shared/errors.ts";
import { migrationsSuite } from "./shared/migrations.ts";
import { fanOutSuite } from "./shared/fan-out.ts";

for (const backend of backends()) {
  describe(`checkpoint [${backend.name}]`, () => {
    after(() => backend.cleanup());
    protocolSuite(backend);
    savingSuite(backend);
    resumeSuite(backend);
    errorsSuite(backend);
    migrationsSuite(backend);
    fanOutSuite(backend);
  });
}
