import { expect } from "chai";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadBundle, missingOptionalPeer, skippedBundleFiles } from "../../src/conformance/bundles.ts";
import { FixtureDirectiveUnknown } from "../../src/conformance/errors.ts";
import { tempDir } from "../support/temp-dir.ts";

const notFound = (pkg: string): Error => Object.assign(new Error(`Cannot find package '${pkg}' imported from /x/capture.js`), { code: "ERR_MODULE_NOT_FOUND" });

describe("conformance/bundles: optional peer dependencies", () => {
  it("names a missing optional peer (the OTel SDK) so its bundle file is skipped, not fatal", () => {
    expect(missingOptionalPeer(notFound("@opentelemetry/sdk-trace-base"))).to.equal("@opentelemetry/sdk-trace-base");
  });

  it("any other failed import is not a missing optional peer", () => {
    expect(missingOptionalPeer(notFound("left-pad"))).to.equal(undefined);
    expect(missingOptionalPeer(new Error("Cannot find package '@opentelemetry/sdk-trace-base'"))).to.equal(undefined);
    expect(missingOptionalPeer(Object.assign(new SyntaxError("bad"), { code: "ERR_MODULE_NOT_FOUND" }))).to.equal(undefined);
  });

  it("a bundle file importing a missing package that is not an optional peer still fails the load", async () => {
    const dir = tempDir("oa-bundle-");
    writeFileSync(join(dir, "broken.mjs"), 'import "oa-no-such-package-xyz";\n');
    let err: unknown;
    try {
      await loadBundle(dir);
    } catch (e) {
      err = e;
    }
    expect((err as { code?: string } | undefined)?.code).to.equal("ERR_MODULE_NOT_FOUND");
  });

  it("an unknown directive names the optional peers whose bundle files were skipped, and only then", () => {
    const unknown = () => new FixtureDirectiveUnknown([{ name: "langfuse_client", position: "case", location: { file: "f.yaml", path: ["cases", 0, "langfuse_client"] } }]);
    expect(unknown().message).not.to.include("npm install");
    const before = skippedBundleFiles.length;
    skippedBundleFiles.push({ file: "/x/langfuse.js", missingPackage: "@opentelemetry/api" }, { file: "/x/metrics.js", missingPackage: "@opentelemetry/sdk-metrics" });
    try {
      expect(unknown().message).to.include("not installed: npm install @opentelemetry/api @opentelemetry/sdk-metrics");
    } finally {
      skippedBundleFiles.splice(before);
    }
  });
});
