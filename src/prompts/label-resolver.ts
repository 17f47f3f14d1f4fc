/**
 * `LabelResolver` (prompt-management §7): maps a prompt name to the label to fetch. Precedence:
 * the per-name entry, then the `default` entry, then `"production"`.
 */
import { readFileSync } from "node:fs";
import { DEFAULT_LABEL } from "./backend.ts";

export interface LabelResolver {
  /** The label for `name`. Synchronous and deterministic for the resolver's state. */
  resolve(name: string): string;
}

/** A resolver over a mapping `{default?: label, <prompt name>: label, ...}` (§7's JSON shape). */
export class StaticLabelResolver implements LabelResolver {
  readonly #labels: ReadonlyMap<string, string>;
  constructor(labels: Readonly<Record<string, string>>) {
    for (const [k, v] of Object.entries(labels)) {
      if (typeof v !== "string" || v === "") throw new TypeError(`label for '${k}' must be a non-empty string, got ${JSON.stringify(v)}`);
    }
    this.#labels = new Map(Object.entries(labels));
  }
  resolve(name: string): string {
    return this.#labels.get(name) ?? this.#labels.get("default") ?? DEFAULT_LABEL;
  }

  /** Read a `prompt_labels.json`-style file once. A missing or malformed file throws, naming it. */
  static fromFile(path: string): StaticLabelResolver {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new Error(`cannot read label file ${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw new TypeError(`label file ${path} must hold a JSON object of name → label`);
    return new StaticLabelResolver(data as Record<string, string>);
  }
}
