/**
 * Values a fixture gives either literally or read from state: `{callable: state_field_read,
 * field}` (the callable forms of pipeline-utilities fixtures, e.g. a fan-out `count`).
 */
import { FixtureDirectiveUnknown } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { StateRecord } from "../../src/graph/index.ts";
import type { BuildEnv } from "./node-directive.ts";

export type FromStateValue = number | null | { callable: string; field?: string; [k: string]: unknown };

export const FROM_STATE_SCHEMA = {
  oneOf: [
    { type: "integer" },
    { type: "null" },
    { type: "object", required: ["callable"], properties: { callable: { type: "string" }, field: { type: "string" } } },
  ],
} as const;

export function fromState(v: FromStateValue, env: BuildEnv, at: KeyPath): number | null | ((s: Readonly<StateRecord>) => number) {
  if (v === null || typeof v === "number") return v;
  if (v.callable === "state_field_read" && typeof v.field === "string") {
    const field = v.field;
    return (s) => s[field] as number;
  }
  // `queue_chunk` (pipeline-utilities fixture 022): how many whole chunks of `chunk_size` items
  // the list in `field` holds.
  if (v.callable === "queue_chunk" && typeof v.field === "string" && typeof v.chunk_size === "number" && v.chunk_size > 0) {
    const field = v.field;
    const size = v.chunk_size;
    return (s) => Math.floor(((s[field] as unknown[] | undefined)?.length ?? 0) / size);
  }
  throw new FixtureDirectiveUnknown([{ name: `callable: ${v.callable}`, position: "node", location: env.locate([...at, "callable"]) }]);
}
