import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { sessionCall } from "../../harness/sessions/reading.ts";

interface SavedValue {
  state?: Record<string, unknown>;
  schema_version?: string;
}

/**
 * `saved_session_assertions: {state, schema_version?}` (conformance-adapter §5.6): the record the
 * store holds for the call's session once the call returned, whichever save wrote it. `state` is
 * exact over the projection's fields; `schema_version` a single value. It takes no other sub-key:
 * `excludes_fields` (which sessions fixture 004 still writes) is retired by the seed — an exact
 * `state` already excludes a field — so the legacy bundle drops it before this schema sees it
 * (counted; refused under --strict-vocabulary, directives/legacy/forms.ts). The schema's
 * `retiredKeys` names the rule should the value reach it any other way.
 */
@directive({ name: "saved_session_assertions", at: ["expected", "invocation"], home: "general", summary: "the session record stored after the call" })
export class SavedSessionAssertions {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    retiredKeys: { excludes_fields: "conformance-adapter 0.120.1 §5.6 retired it (an exact 'state' already excludes every field it does not name); drop it" },
    properties: { state: { type: "object" }, schema_version: { type: "string" }, excludes_fields: true },
  };
  check(value: SavedValue, obs: Observation, ctx: CheckContext): void {
    const s = sessionCall(obs, ctx);
    if (s === null) return;
    const rec = s.recordAfter;
    if (rec === null) {
      ctx.fail(`the store holds no record for session ${JSON.stringify(s.sessionId ?? null)} after the call`);
      return;
    }
    if (value.state !== undefined) ctx.match(value.state, rec.state, Shapes.exact(), `${ctx.label}.state`);
    if (value.schema_version !== undefined) ctx.match(value.schema_version, rec.schemaVersion, null, `${ctx.label}.schema_version`);
  }
}
