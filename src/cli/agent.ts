/**
 * `openarmature agent [--form FILE] [model options] PROMPT` (ADR-0052 D3): send PROMPT to a model
 * and print the reply. The model is chosen by the rule `chat` and `serve` share (model-choice.ts);
 * with no key and no flag naming a model it exits 2 instead of calling anything. `--form` is a closed,
 * fail-before-model gate: the form file (YAML, then JSON) must be a mapping of exactly `title`,
 * `fields` and `values`; every value must be declared; the declarations build `FieldSpec`s and
 * `fillForm` validates them. Any problem exits 1 before a provider is constructed. A valid form
 * with values is rendered before the prompt:
 *
 *     [Work Form: <title>]
 *       <key>: <Python repr of the value>
 *
 *     <prompt>
 */
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse as parseYaml } from "yaml";
import { textOf } from "../llm/messages.ts";
import { createModel, MODEL_FLAGS_HELP, modelRuleHelp, planModel, type ModelPlan } from "./model-choice.ts";
import { UsageError } from "./request.ts";
import { FieldSpec } from "../work/field-spec.ts";
import { WorkForm } from "../work/work-form.ts";
import { fillForm } from "../work/fill.ts";

export const AGENT_USAGE = `usage: openarmature agent [--form FILE] [model options] PROMPT

Send PROMPT to a model and print its reply on standard output.

  --form FILE          a YAML / JSON work form {title, fields, values}, validated before any model
                       call (an invalid form exits 1 and no provider is constructed)
${MODEL_FLAGS_HELP}

${modelRuleHelp("none of these (no key, no --provider): exit 2, naming what it looked for. agent runs the offline\ndemo only when asked (--provider scripted): its output is taken as a model's answer")}

exit status: 0 replied, 1 an invalid form or a failed call, 2 a usage error (including no model)`;

/** A form-file problem: the CLI reports it and exits 1. */
export class FormFileError extends Error {
  override name = "FormFileError";
}

const ALLOWED_KEYS = ["title", "fields", "values"];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Read a form file: a regular file, parsed as YAML, else (if YAML raised) as JSON; the top level a mapping. */
export function loadFormSpec(path: string): Record<string, unknown> {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) throw new FormFileError(`${path}: form file not found`);
  if (!st.isFile()) throw new FormFileError(`${path}: not a regular file`);
  const text = readFileSync(path, "utf8");
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (yamlError) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new FormFileError(`${path}: neither YAML nor JSON: ${(yamlError as Error).message.split("\n")[0]}`);
    }
  }
  if (!isRecord(data)) throw new FormFileError(`${path}: the form must be a mapping {title, fields, values}`);
  return data;
}

/** Build and fill the form under the closed schema; a problem throws {@link FormFileError} naming path and field. */
export function buildWorkForm(spec: Record<string, unknown>, path: string): WorkForm {
  const unknown = Object.keys(spec).filter((k) => !ALLOWED_KEYS.includes(k));
  if (unknown.length > 0) throw new FormFileError(`${path}: unknown top-level key${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `'${k}'`).join(", ")} (allowed: ${ALLOWED_KEYS.join(", ")})`);
  const title = spec["title"] ?? "";
  if (typeof title !== "string") throw new FormFileError(`${path}: title must be a string`);
  const fieldsIn = spec["fields"] ?? {};
  const values = spec["values"] ?? {};
  if (!isRecord(fieldsIn)) throw new FormFileError(`${path}: fields must be a mapping of field declarations`);
  if (!isRecord(values)) throw new FormFileError(`${path}: values must be a mapping`);
  const declared = Object.keys(fieldsIn);
  if (Object.keys(values).length > 0 && declared.length === 0) throw new FormFileError(`${path}: values without field declarations would reach the model unvalidated; declare them under fields`);
  for (const key of Object.keys(values)) if (!declared.includes(key)) throw new FormFileError(`${path}: values.${key} is not a declared field (declared: ${declared.join(", ")})`);
  const fields: Record<string, FieldSpec> = {};
  for (const [name, decl] of Object.entries(fieldsIn)) {
    if (!isRecord(decl)) throw new FormFileError(`${path}: fields.${name}: a field declaration must be a mapping`);
    try {
      fields[name] = new FieldSpec({ ...decl, name } as ConstructorParameters<typeof FieldSpec>[0]);
    } catch (e) {
      throw new FormFileError(`${path}: fields.${name}: invalid field specification: ${(e as Error).message}`);
    }
  }
  const form = new WorkForm({ title, fields });
  return declared.length > 0 || Object.keys(values).length > 0 ? fillForm(form, values) : form;
}

/** The validated form as the context block before the prompt (empty when it has no values). */
export function formToContextBlock(form: WorkForm): string {
  const entries = Object.entries(form.values);
  if (entries.length === 0) return "";
  return [`[Work Form: ${form.title}]`, ...entries.map(([k, v]) => `  ${k}: ${pyRepr(v, form.fields[k]?.type === "float")}`)].join("\n");
}

/** Python's repr() of a JSON-like value (`float`: integral numbers print as `n.0`). */
export function pyRepr(value: unknown, float = false): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "nan";
    if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
    return float && Number.isInteger(value) ? `${value}.0` : String(value);
  }
  if (typeof value === "string") return pyStr(value);
  if (Array.isArray(value)) return `[${value.map((v) => pyRepr(v)).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${pyStr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  return String(value);
}

function pyStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

export async function agentCommand(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        form: { type: "string" },
        provider: { type: "string" },
        model: { type: "string" },
        script: { type: "string" },
        "base-url": { type: "string" },
        help: { type: "boolean", default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    process.stderr.write(`openarmature agent: ${(err as Error).message}\n${AGENT_USAGE}\n`);
    return 2;
  }
  const { values: opts, positionals } = args;
  if (opts.help) {
    process.stdout.write(`${AGENT_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] === "") {
    process.stderr.write(`openarmature agent: expected exactly one PROMPT argument\n${AGENT_USAGE}\n`);
    return 2;
  }
  // The model is chosen before the form is read (a usage problem exits 2 first) and constructed
  // only once the form passed.
  let plan: ModelPlan;
  try {
    plan = planModel(opts, process.env, "refuse", "agent");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`openarmature agent: ${e.message}\n`);
    return 2;
  }
  let prompt = positionals[0]!;
  // The gate: every form problem exits here, before any provider exists.
  if (opts.form !== undefined) {
    let form: WorkForm;
    try {
      form = buildWorkForm(loadFormSpec(opts.form), opts.form);
    } catch (e) {
      process.stderr.write(`openarmature agent: invalid form: ${(e as Error).message}\n`);
      return 1;
    }
    if (form.status === "error") {
      process.stderr.write(`openarmature agent: invalid form ${opts.form}:\n${form.validationErrors.map((m) => `  - ${m}`).join("\n")}\n`);
      return 1;
    }
    const block = formToContextBlock(form);
    if (block !== "") prompt = `${block}\n\n${prompt}`;
  }
  try {
    const { provider } = createModel(plan);
    const response = await provider.complete([{ role: "user", content: prompt }]);
    process.stdout.write(`${textOf(response.message.content)}\n`);
    return 0;
  } catch (e) {
    const category = (e as { category?: unknown }).category;
    process.stderr.write(`openarmature agent: ${typeof category === "string" ? `${category}: ` : ""}${(e as Error).message}\n`);
    return 1;
  }
}
