import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { State } from "../general/state.ts";

/** Rewrite `str` → `string` in a type string (`str`, `list<str>`, `dict<str,int>`, …). */
function canonicalType(t: string): string {
  return t.replace(/(^|[<,\s])str(?=$|[>,\s])/g, "$1string");
}

/**
 * `state:` as the sessions fixtures write it: they spell the string primitive `str` (004, 006,
 * 010), which conformance-adapter §5.2 calls `string`; read as `string`. The general definition
 * governs everything else.
 */
@directive({ name: "state", at: ["case", "subgraph"], home: "sessions", summary: "typed state schema (`str` read as `string`)" })
export class SessionsState extends State {
  override configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    const fields = value.fields as Record<string, Record<string, unknown>>;
    const rewritten: Record<string, Record<string, unknown>> = {};
    for (const [name, f] of Object.entries(fields)) rewritten[name] = typeof f.type === "string" ? { ...f, type: canonicalType(f.type) } : f;
    super.configure({ ...value, fields: rewritten }, ctx);
  }
}
