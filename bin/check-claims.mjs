#!/usr/bin/env node
// Reads a `conform --json` report and the claims file; exits 1 when a claimed capability has a
// failed or skipped case, or no cases at all. Unclaimed capabilities are reported, not judged.
import { readFileSync } from "node:fs";

const [reportFile, claimsFile] = process.argv.slice(2);
if (!reportFile || !claimsFile) {
  console.error("usage: check-claims.mjs REPORT.json CLAIMS.json");
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, "utf8"));
const { claimed } = JSON.parse(readFileSync(claimsFile, "utf8"));
let bad = 0;
for (const cap of claimed) {
  const mine = report.results.filter((r) => r.fixture.startsWith(`${cap}/`));
  const failed = mine.filter((r) => r.status !== "passed");
  if (mine.length === 0) {
    console.error(`claimed capability ${cap}: no cases ran`);
    bad++;
  } else if (failed.length > 0) {
    console.error(`claimed capability ${cap}: ${failed.length} of ${mine.length} cases did not pass:`);
    for (const r of failed.slice(0, 20)) console.error(`  ${r.fixture} › ${r.case ?? "-"}: ${r.status} ${r.category ?? ""}`);
    bad++;
  } else {
    console.log(`claimed capability ${cap}: all ${mine.length} cases passed`);
  }
}
if (claimed.length === 0) console.log("no capability is claimed yet; the upstream run above is informational");
process.exit(bad > 0 ? 1 : 0);
