/**
 * The prompt-management case runner: builds the declared backends and the `PromptManager`, runs
 * `calls:` in order against the library, and reports one record per call plus a case record
 * (captures, backend counters) for the case-level assertions.
 */
import { SlotKey, type CallRecord, type CaseExecutor, type RunContext } from "../../src/conformance/directive.ts";
import { AssertionFailed, FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { PromptGroup, PromptManager, type FallbackEvent, type Prompt, type PromptMessage, type PromptResult } from "../../src/prompts/index.ts";
import { BuiltBackend, type DeclaredBackend } from "./backends.ts";
import { describeCall, PromptCall, PromptCase, type PromptCallRecord } from "./facets.ts";

/** Plan input holding a call's keys (`operation`, `name`, `variables`, ...). */
export const CALL_INPUT = "prompt_call";

export interface ManagerDecl {
  readonly backends?: ReadonlyArray<string>;
  readonly default_cache_ttl_seconds?: number;
  readonly path: KeyPath;
}

export class PromptCaseState {
  readonly backends: { decl: DeclaredBackend; path: KeyPath }[] = [];
  manager: ManagerDecl | undefined;
  readonly calls: InvocationPlan[] = [];
}

export const PROMPT_CASE = new SlotKey("prompt-management case", () => new PromptCaseState());

type CallInput = Readonly<Record<string, unknown>>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export const promptExecutor: CaseExecutor = {
  name: "prompt-management calls",
  async run(ctx: RunContext): Promise<CallRecord[]> {
    const state = ctx.slot(PROMPT_CASE);
    const built = new Map<string, BuiltBackend>();
    for (const { decl, path } of state.backends) {
      if (built.has(decl.name)) throw new FixtureSchemaInvalid(`backend '${decl.name}' is declared twice`, ctx.locate(path));
      try {
        built.set(decl.name, new BuiltBackend(decl));
      } catch (e) {
        // The library's §5 config projection rejected a prompt's sampling config.
        throw new FixtureSchemaInvalid(`backend '${decl.name}': ${(e as Error).message}`, ctx.locate(path));
      }
    }
    const fallbacks: FallbackEvent[] = [];
    let manager: PromptManager | undefined;
    const managerOf = (path: KeyPath): PromptManager => {
      if (manager) return manager;
      const decl = state.manager;
      const names = decl?.backends ?? [...built.keys()];
      const backends = names.map((n) => {
        const b = built.get(n);
        if (!b) throw new FixtureSchemaInvalid(`manager backend '${n}' is not declared under backends:`, ctx.locate(decl?.path ?? path));
        return b.backend;
      });
      if (backends.length === 0) throw new FixtureSchemaInvalid("a manager call needs at least one declared backend", ctx.locate(path));
      manager = new PromptManager({
        backends,
        ...(decl?.default_cache_ttl_seconds !== undefined ? { defaultCacheTtlSeconds: decl.default_cache_ttl_seconds } : {}),
        onFallback: (e) => fallbacks.push(e),
      });
      return manager;
    };
    const counts = (): Record<string, number> => Object.fromEntries([...built].map(([n, b]) => [n, b.calls]));
    const captures = new Map<string, PromptCallRecord>();
    const records: CallRecord[] = [];

    const captured = (label: unknown, path: KeyPath): PromptCallRecord => {
      const r = typeof label === "string" ? captures.get(label) : undefined;
      if (!r) throw new FixtureSchemaInvalid(`no earlier call was captured as '${String(label)}'`, ctx.locate(path));
      return r;
    };
    const capturedValue = (label: unknown, path: KeyPath): unknown => {
      const r = captured(label, path);
      if (r.error !== undefined) {
        throw new AssertionFailed([`${String(label)}: the call captured as '${String(label)}' raised, so a later call cannot use it — ${describeCall(r)}`], ctx.locate(path));
      }
      return r.value;
    };

    for (const plan of state.calls) {
      ctx.signal.throwIfAborted();
      const input = plan.input<CallInput>(CALL_INPUT) ?? {};
      const at = (k: string): KeyPath => [...plan.path, k];
      const target = input["target"];
      const op = String(input["operation"] ?? (target === "construct_prompt_group" ? "construct_prompt_group" : ""));
      const backendName = isRecord(target) && typeof target["backend"] === "string" ? target["backend"] : undefined;
      const toManager = target === "manager" || (isRecord(target) && target["manager"] === true);
      const label = typeof input["label"] === "string" ? input["label"] : undefined;
      // §6.8: a written null is the default, the same as an omitted value.
      const ttl = (input["cache_ttl_seconds"] ?? undefined) as number | undefined;
      const variables = (input["variables"] ?? {}) as Record<string, unknown>;
      const placeholders = input["placeholders"] as Record<string, PromptMessage[]> | undefined;
      const backendOf = (): BuiltBackend => {
        const b = backendName !== undefined ? built.get(backendName) : undefined;
        if (!b) throw new FixtureSchemaInvalid(`target backend '${String(backendName)}' is not declared under backends:`, ctx.locate(at("target")));
        return b;
      };

      let value: unknown;
      let error: unknown;
      try {
        switch (op) {
          case "fetch":
            if (backendName !== undefined) value = await backendOf().backend.fetch(String(input["name"]), label ?? "production", ttl !== undefined ? { cacheTtlSeconds: ttl } : {});
            else if (toManager) value = await managerOf(plan.path).fetch(String(input["name"]), { label: label ?? null, cacheTtlSeconds: ttl ?? null });
            else throw new FixtureSchemaInvalid("a fetch targets {backend: <name>} or the manager", ctx.locate(at("target")));
            break;
          case "render": {
            if (!toManager) throw new FixtureSchemaInvalid("render targets the manager", ctx.locate(at("target")));
            const m = managerOf(plan.path);
            let prompt: Prompt;
            if (input["fetched_prompt_ref"] !== undefined) prompt = capturedValue(input["fetched_prompt_ref"], at("fetched_prompt_ref")) as Prompt;
            else if (isRecord(input["fetched_prompt"])) {
              const fp = input["fetched_prompt"];
              // The prompt to render is fetched first; a failing fetch is not the render under test.
              try {
                prompt = await m.fetch(String(fp["name"]), { label: typeof fp["label"] === "string" ? fp["label"] : null });
              } catch (e) {
                throw new AssertionFailed([`${plan.name}: fetching fetched_prompt ${JSON.stringify(fp)} to render failed: ${(e as Error).message}`], ctx.locate(at("fetched_prompt")));
              }
            } else throw new FixtureSchemaInvalid("render needs fetched_prompt or fetched_prompt_ref", ctx.locate(plan.path));
            value = m.render(prompt, variables, placeholders);
            break;
          }
          case "get":
            if (!toManager) throw new FixtureSchemaInvalid("get targets the manager", ctx.locate(at("target")));
            value = await managerOf(plan.path).get(String(input["name"]), {
              label: label ?? null,
              variables,
              ...(placeholders !== undefined ? { placeholders } : {}),
              cacheTtlSeconds: ttl ?? null,
            });
            break;
          case "advance_clock":
            if (typeof input["seconds"] !== "number") throw new FixtureSchemaInvalid("advance_clock needs seconds: <number>", ctx.locate(plan.path));
            backendOf().advanceClock(input["seconds"]);
            break;
          case "construct_prompt_group": {
            const refs = input["members_refs"];
            if (!Array.isArray(refs)) throw new FixtureSchemaInvalid("construct_prompt_group needs members_refs: [<label>, ...]", ctx.locate(plan.path));
            const members = refs.map((r, i) => capturedValue(r, [...at("members_refs"), i]) as PromptResult);
            value = new PromptGroup(String(input["group_name"] ?? ""), members);
            break;
          }
          default:
            throw new FixtureSchemaInvalid(`unknown prompt-management operation '${op}'`, ctx.locate(at("operation")));
        }
      } catch (e) {
        if (e instanceof FixtureSchemaInvalid || e instanceof AssertionFailed) throw e;
        error = e;
      }
      const record: PromptCallRecord = { operation: op, ...(error !== undefined ? { error } : { value }), backendCalls: counts() };
      if (error !== undefined && !plan.assertions.some((a) => a.key === "raises")) {
        throw new AssertionFailed([`${plan.name}: ${describeCall(record)} (no expected.raises was written for this call)`], ctx.locate(plan.path));
      }
      if (typeof input["capture_as"] === "string") captures.set(input["capture_as"], record);
      records.push({ plan, observation: new Observation(plan.name).set(PromptCall, record) });
    }
    const caseObs = new Observation(null).set(PromptCase, {
      captures,
      backendCalls: counts(),
      sourceReads: Object.fromEntries([...built].filter(([, b]) => b.decl.caching).map(([n, b]) => [n, b.sourceReads])),
      caching: new Set([...built].filter(([, b]) => b.decl.caching).map(([n]) => n)),
    });
    records.push({ plan: ctx.casePlan, observation: caseObs });
    return records;
  },
};
