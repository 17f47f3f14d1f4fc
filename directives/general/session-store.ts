import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { SessionCase } from "../../harness/sessions/case.ts";
import { persistenceCase } from "../../harness/suspension/case.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

/**
 * `session_store: <name>` (conformance-adapter §5.6): the SessionStore backend registered on the
 * case's graph — `in_memory`, the library's `InMemorySessionStore` (§6.2: it counts its calls).
 * Every call then runs through the real `withSessions(graph, { store, ... })`.
 */
@directive({ name: "session_store", at: "case", home: "general", summary: "the SessionStore registered on the graph" })
export class SessionStoreDirective {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    const sc = ctx.slot(SessionCase);
    sc.active = true;
    sc.store = { name: value, path: ctx.self.path };
    if (ctx.plan.kind === "case") sc.casePlan ??= ctx.plan;
    persistenceCase(ctx);
    useGraphExecutor(ctx);
  }
}
