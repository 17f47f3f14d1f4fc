/**
 * `openarmature agent --form` (ADR-0052 D3) through the real binary (`node bin/openarmature.mjs`,
 * a child process) and the `scripted` provider recording to a file ($OPENARMATURE_TEST_RECORD):
 * every invalid form exits 1 and the record file is never created — no provider was constructed,
 * so no call can have happened.
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp-dir.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const dir = tempDir("oa-agent-");
const script = join(dir, "script.yaml");
writeFileSync(script, "responses:\n  - type: text\n    content: scripted reply\n");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  records: Array<Record<string, unknown>>;
  recordFileExists: boolean;
}
let n = 0;
function agent(args: string[]): Promise<Run> {
  const record = join(dir, `record-${++n}.jsonl`);
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = { ...process.env, OPENARMATURE_TEST_RECORD: record };
    delete env.OPENARMATURE_TEST_SCRIPT;
    execFile(process.execPath, ["bin/openarmature.mjs", "agent", ...args], { cwd: PROJECT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const exists = existsSync(record);
      const records = exists ? readFileSync(record, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) : [];
      done({ code: err === null ? 0 : typeof err.code === "number" ? err.code : -1, stdout, stderr, records, recordFileExists: exists });
    });
  });
}
function formFile(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}
const scripted = (form: string, prompt = "Summarize.") => agent(["--form", form, "--provider", "scripted", "--script", script, prompt]);

const DECLS = "fields:\n  name: {type: str}\n  age: {type: int}\n";
const INVALID: Array<[string, () => string, RegExp]> = [
  ["a missing path", () => join(dir, "nope.yaml"), /form file not found/],
  ["a directory", () => (mkdirSync(join(dir, "adir"), { recursive: true }), join(dir, "adir")), /not a regular file/],
  ["neither YAML nor JSON", () => formFile("bad.yaml", "fields: [unclosed\n"), /neither YAML nor JSON/],
  ["a list at the top level", () => formFile("list.yaml", "- a\n- b\n"), /must be a mapping/],
  ["an unknown top-level key", () => formFile("extra.yaml", `${DECLS}values: {name: a, age: 1}\nowner: me\n`), /unknown top-level key 'owner'/],
  ["fields not a mapping", () => formFile("f.yaml", "fields: [name]\n"), /fields must be a mapping/],
  ["values not a mapping", () => formFile("v.yaml", `${DECLS}values: [1]\n`), /values must be a mapping/],
  ["values without fields", () => formFile("nofields.yaml", "values: {name: Ada}\n"), /values without field declarations/],
  ["values with empty fields", () => formFile("emptyfields.yaml", "fields: {}\nvalues: {name: Ada}\n"), /values without field declarations/],
  ["an undeclared value", () => formFile("undeclared.yaml", `${DECLS}values: {name: a, age: 1, nickname: x}\n`), /values\.nickname is not a declared field/],
  ["a declaration that is not a mapping", () => formFile("declstr.yaml", "fields:\n  name: str\n"), /fields\.name: a field declaration must be a mapping/],
  ["an invalid field name", () => formFile("badname.yaml", "fields:\n  9lives: {type: int}\n"), /fields\.9lives: invalid field specification: .*must match/],
  ["an unknown field type", () => formFile("badtype.yaml", "fields:\n  d: {type: date}\n"), /fields\.d: invalid field specification: .*unknown type "date"/],
  ["a default of the wrong type", () => formFile("baddefault.yaml", "fields:\n  n: {type: int, default: many}\n"), /fields\.n: invalid field specification: .*default "many" is str, not int/],
  ["an unknown declaration key", () => formFile("badkey.yaml", "fields:\n  n: {type: int, min: 1}\n"), /fields\.n: invalid field specification: .*unknown key 'min'/],
  ["a missing required value (values empty)", () => formFile("missing.yaml", DECLS), /field 'name': required but missing/],
  ["an explicit null for a required field", () => formFile("null.yaml", `${DECLS}values: {name: null, age: 3}\n`), /field 'name': required but missing/],
  ["a value that does not coerce", () => formFile("coerce.yaml", `${DECLS}values: {name: Ada, age: old}\n`), /field 'age': expected int, got str/],
  ["a JSON form with an error", () => formFile("bad.json", JSON.stringify({ fields: { ok: { type: "bool" } }, values: { ok: "perhaps" } })), /field 'ok': expected bool/],
];

describe("openarmature agent --form: the fail-before-model gate (the CLI, as a child process)", function () {
  this.timeout(120_000);
  const runs = new Map<string, Promise<Run>>();
  before(() => {
    // Start the runs a few at a time (2 cores shared); each test awaits its own.
    let chain: Array<Promise<unknown>> = [Promise.resolve(), Promise.resolve(), Promise.resolve()];
    INVALID.forEach(([title, make], i) => {
      const slot = i % chain.length;
      const run = chain[slot]!.then(() => scripted(make()));
      chain[slot] = run;
      runs.set(title, run);
    });
  });
  for (const [title, , message] of INVALID) {
    it(`${title}: exit 1, the error named, no provider constructed or called`, async () => {
      const r = await runs.get(title)!;
      expect(r.code, r.stderr).to.equal(1);
      expect(r.stderr).to.match(message);
      expect(r.stdout).to.equal("");
      expect(r.recordFileExists, "the scripted provider was constructed").to.equal(false);
    });
  }

  it("a valid form is rendered before the prompt (Python reprs, declaration order) and reaches one call", async () => {
    const form = formFile(
      "ok.yaml",
      "title: Onboarding\nfields:\n  name: {type: str}\n  age: {type: int}\n  ratio: {type: float, required: false, default: 2}\n  tags: {type: list, required: false}\n  admin: {type: bool}\n  meta: {type: dict, required: false}\nvalues:\n  admin: 'yes'\n  tags: [a, \"it's\"]\n  age: '36'\n  name: Ada\n  meta: {k: null}\n",
    );
    const r = await scripted(form, "Greet the user.");
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal("scripted reply\n");
    expect(r.records.map((x) => x["event"])).to.deep.equal(["constructed", "call"]);
    const messages = (r.records[1]!["payload"] as { messages: Array<{ content: string }> }).messages;
    expect(messages).to.have.length(1);
    expect(messages[0]!.content).to.equal(
      ["[Work Form: Onboarding]", "  name: 'Ada'", "  age: 36", "  ratio: 2.0", "  tags: ['a', \"it's\"]", "  admin: True", "  meta: {'k': None}", "", "Greet the user."].join("\n"),
    );
  });
  it("a JSON form file, and an empty form (a draft: the prompt unchanged)", async () => {
    const json = await scripted(formFile("ok.json", JSON.stringify({ title: "T", fields: { n: { type: "int" } }, values: { n: 1 } })), "P");
    expect(json.code, json.stderr).to.equal(0);
    expect((json.records[1]!["payload"] as { messages: Array<{ content: string }> }).messages[0]!.content).to.equal("[Work Form: T]\n  n: 1\n\nP");
    const empty = await scripted(formFile("empty.yaml", "{}\n"), "Just this.");
    expect(empty.code, empty.stderr).to.equal(0);
    expect((empty.records[1]!["payload"] as { messages: Array<{ content: string }> }).messages[0]!.content).to.equal("Just this.");
  });
  it("usage errors exit 2; a provider failure exits 1 with its category", async () => {
    expect((await agent(["--provider", "openai", "--script", script, "x"])).code).to.equal(2);
    expect((await agent(["--provider", "nosuch", "x"])).code).to.equal(2);
    const exhausted = await agent(["--provider", "scripted", "--script", formFile("empty-script.yaml", "responses: []\n"), "x"]);
    expect(exhausted.code).to.equal(1);
    expect(exhausted.stderr).to.match(/script_exhausted: .*call #0/);
  });
});
