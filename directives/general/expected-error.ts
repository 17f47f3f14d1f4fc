import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { causeChain, classify, describeResult } from "../../harness/graph/reading.ts";
import { FlakyCalls } from "../../harness/pipeline/facets.ts";
import { CARRIES_SCHEMA, categorizedLink, checkCarries } from "../../harness/graph/carries.ts";
import { DeclaredMocks, MockRaises } from "../../harness/graph/mock-raises.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";

interface ExpectedErrorValue {
  category?: string;
  message?: string;
  cause_message?: string;
  raised_from?: string;
  recoverable_state?: Record<string, unknown>;
  execution_order?: string[];
  raised_at?: "registration";
  branch_name?: string;
  fan_out_category?: string;
  flaky_call_count?: number;
  carries?: Record<string, unknown>;
  cause?: { raised_by_mock?: string; exception_type?: string };
}

/** `cause: {raised_by_mock}` (§5.8); a directory whose note adds `exception_type` widens it with {@link causeSchema}. */
export function causeSchema(withExceptionType: boolean): Record<string, unknown> {
  const props: Record<string, unknown> = { raised_by_mock: { type: "string", minLength: 1 } };
  if (withExceptionType) props["exception_type"] = { type: "string", minLength: 1 };
  return { type: "object", minProperties: 1, additionalProperties: false, properties: props, ...(withExceptionType ? {} : { required: ["raised_by_mock"] }) };
}

/**
 * `expected_error:` (conformance-adapter §5.8), beside `expected:`: the case raised a categorized
 * error instead of completing or suspending. Each sub-key asserts only when present: `category`
 * and `message` by the §5.8 category rule, `cause_message` (innermost link), `raised_from`,
 * `recoverable_state` (a state snapshot, exact), the `execution_order` up to the failure, and
 * `raised_at: registration` (raised by compile / registration, before any invoke()), and `carries`
 * (§5.13, general: fields of the error the category rule picks, `harness/graph/carries.ts`), and
 * `cause: {raised_by_mock: <mock>}`: the raised error's cause chain (`Error.cause`) links to the very
 * exception the failure mock under `nodes.<mock>:` raised in this call (by identity; a name that
 * hosts no mock is `fixture_schema_invalid`). The pipeline-utilities and sessions notes add
 * `cause: {exception_type}` (the type name of the categorized error's own cause), checked here too
 * where their schemas admit it. Pipeline
 * fixtures add `branch_name` (the failed branch a parallel-branches carrier names, §11) and
 * `fan_out_category` (the fan-out error category in the cause chain, §9), and `flaky_call_count`
 * (how many times the raising node's `flaky` mock body ran in the call, by its own counter). Some fixtures write the
 * block inside `expected:`; it reads the same call there.
 */
@directive({ name: "expected_error", at: ["case", "invocation", "expected"], home: "general", summary: "the case raised this categorized error" })
export class ExpectedError {
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    properties: {
      category: { type: "string" },
      message: { type: "string" },
      cause_message: { type: "string" },
      raised_from: { type: "string" },
      recoverable_state: { type: "object" },
      execution_order: { type: "array", items: { type: "string" } },
      raised_at: { enum: ["registration"] },
      branch_name: { type: "string" },
      fan_out_category: { type: "string" },
      flaky_call_count: { type: "integer", minimum: 0 },
      carries: CARRIES_SCHEMA,
      cause: causeSchema(false),
    },
  };
  check(value: ExpectedErrorValue, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored" && r.kind !== "compile_error") {
      ctx.fail(`expected the case to raise ${value.category ?? "an error"}, but ${describeResult(r)}`);
      return;
    }
    if (value.raised_at === "registration" && r.kind !== "compile_error") {
      ctx.fail("expected the error at registration / compile time, but it was raised by invoke()");
    }
    const c = classify(r.error);
    const e = r.error as Error & { nodeName?: string; state?: Record<string, unknown>; executionOrder?: readonly string[] };
    const sub = (k: string): string => `${ctx.label}.${k}`;
    if (value.category !== undefined) ctx.match(value.category, c.category, null, sub("category"));
    if (value.message !== undefined) ctx.match(value.message, c.message, null, sub("message"));
    if (value.cause_message !== undefined) ctx.match(value.cause_message, c.causeMessage, null, sub("cause_message"));
    if (value.raised_from !== undefined) ctx.match(value.raised_from, e.nodeName ?? null, null, sub("raised_from"));
    if (value.recoverable_state !== undefined) ctx.match(value.recoverable_state, e.state ?? null, Shapes.exact(), sub("recoverable_state"));
    if (value.branch_name !== undefined) {
      const b = causeChain(r.error).map((l) => (l.error as { branchName?: unknown }).branchName).find((x) => typeof x === "string");
      ctx.match(value.branch_name, b ?? null, null, sub("branch_name"));
    }
    if (value.fan_out_category !== undefined) {
      const kinds = causeChain(r.error).map((l) => (l.error as { fanOutCategory?: unknown }).fanOutCategory);
      ctx.match(value.fan_out_category, kinds.find((k) => typeof k === "string") ?? null, null, sub("fan_out_category"));
    }
    if (value.flaky_call_count !== undefined) {
      const counts = obs.tryGet(FlakyCalls);
      const n = e.nodeName !== undefined ? counts?.get(e.nodeName) : undefined;
      if (n === undefined) ctx.fail(`the raising node '${e.nodeName ?? "?"}' has no flaky mock that ran in this call`, { path: sub("flaky_call_count") });
      else ctx.match(value.flaky_call_count, n, null, sub("flaky_call_count"));
    }
    if (value.carries !== undefined) checkCarries(value.carries, categorizedLink(r.error), ctx, sub("carries"));
    if (value.cause?.raised_by_mock !== undefined) checkRaisedByMock(value.cause.raised_by_mock, r.error, obs, ctx, sub("cause.raised_by_mock"));
    if (value.cause?.exception_type !== undefined) {
      const c = categorizedLink(r.error).cause as (Error & { constructor?: { name?: string } }) | undefined | null;
      const name = c === undefined || c === null ? null : (c.name ?? c.constructor?.name ?? typeof c);
      ctx.match(value.cause.exception_type, name, null, sub("cause.exception_type"));
    }
    if (value.execution_order !== undefined) ctx.match(value.execution_order, obs.tryGet(F.ExecutionOrder) ?? e.executionOrder ?? null, null, sub("execution_order"));
  }
}

/** `cause: {raised_by_mock: <mock>}`: some cause link of `error` is an exception mock `<mock>` raised in this call. */
function checkRaisedByMock(mock: string, error: unknown, obs: Observation, ctx: CheckContext, label: string): void {
  const declared = obs.tryGet(DeclaredMocks) ?? new Set<string>();
  if (!declared.has(mock)) {
    const known = [...declared].sort();
    throw new FixtureSchemaInvalid(
      `${label}: '${mock}' names no fixture failure mock of this case (a mock is named by the node it sits under; ${known.length > 0 ? `mocks: ${known.join(", ")}` : "the case declares none"})`,
      ctx.locate([...ctx.self.path, "cause", "raised_by_mock"]),
    );
  }
  const raised = obs.tryGet(MockRaises)?.get(mock) ?? [];
  if (raised.length === 0) {
    ctx.fail(`the mock '${mock}' raised nothing in this call, so it cannot be the raised error's cause`, { path: label });
    return;
  }
  const causes = causeChain(error).slice(1).map((l) => l.error);
  if (!causes.some((c) => raised.includes(c as Error))) {
    ctx.fail(`the raised error's cause chain (${causeChain(error).map((l) => (l.error as Error).name ?? "?").join(" -> ")}) does not link to the exception mock '${mock}' raised (${raised.length} raised)`, { path: label });
  }
}
