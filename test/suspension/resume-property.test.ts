/**
 * Property: for a random graph of plain nodes, subgraph nodes and self-loops with one outermost node
 * that suspends (suspension §3, markNodeCompleted: true), resuming with a signal payload (§7) ends in
 * exactly the state of the same graph whose node returns that payload as its update — the payload
 * sets a last-write-wins field, where §6's shallow overlay and a merge agree — under the same
 * invocation id, and no body ran twice. Both checkpointer backends hold the paused record.
 */
import { expect } from "chai";
import fc from "fast-check";
import { END, GraphBuilder, stateSchema, type CompiledGraph, type StateRecord } from "../../src/graph/index.ts";
import type { Checkpointer } from "../../src/checkpoint/index.ts";
import { suspend, withSuspension } from "../../src/suspension/index.ts";
import { itOnBothBackends } from "../checkpoint/helpers.ts";

type Step = { readonly kind: "fn" } | { readonly kind: "sub"; readonly inner: number } | { readonly kind: "loop"; readonly times: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: "fn" }),
  fc.integer({ min: 1, max: 3 }).map((inner): Step => ({ kind: "sub", inner })),
  fc.integer({ min: 1, max: 3 }).map((times): Step => ({ kind: "loop", times })),
);

function sitesOf(steps: readonly Step[]): string[] {
  return steps.flatMap((s, i) =>
    s.kind === "fn" ? [`s${i}`] : s.kind === "sub" ? Array.from({ length: s.inner }, (_, j) => `s${i}.${j}`) : Array.from({ length: s.times }, (_, t) => `s${i}@${t}`),
  );
}

/** The graph; at site `pause` the body suspends (`mode: "suspend"`) or returns the payload itself (`"reference"`). */
function build(steps: readonly Step[], pause: string, mode: "suspend" | "reference"): { graph: CompiledGraph<StateRecord, unknown>; runs: Map<string, number> } {
  const runs = new Map<string, number>();
  const body = (site: string, field: string): Record<string, unknown> => {
    runs.set(site, (runs.get(site) ?? 0) + 1);
    if (site === pause) {
      if (mode === "suspend") suspend({ signalId: `pause-${site}` });
      // The reference returns the payload; the loop's own `turns` step rides along below, as the
      // resume's payload carries it (markNodeCompleted: the paused node's update is the payload).
      return { approval: `payload@${site}` };
    }
    return { [field]: [site] };
  };
  const S = stateSchema({
    fields: { log: { type: "list<string>", reducer: "append", default: [] }, turns: { type: "int", default: 0 }, approval: { type: "string", default: "" } },
  });
  const b = new GraphBuilder(S);
  steps.forEach((s, i) => {
    const name = `s${i}`;
    if (s.kind === "fn") b.addNode(name, async () => body(name, "log"));
    else if (s.kind === "loop") {
      b.addNode(name, async (st) => {
        const t = st["turns"] as number;
        const site = `${name}@${t}`;
        return { ...body(site, "log"), turns: t + 1 < s.times ? t + 1 : 0 };
      });
    } else {
      const I = stateSchema({ fields: { ilog: { type: "list<string>", reducer: "append", default: [] }, approval: { type: "string", default: "" } } });
      const ib = new GraphBuilder(I);
      for (let j = 0; j < s.inner; j++) {
        ib.addNode(`n${j}`, async () => body(`${name}.${j}`, "ilog"));
        ib.addEdge(`n${j}`, j + 1 < s.inner ? `n${j + 1}` : END);
      }
      b.addSubgraph(name, ib.setEntry("n0").compile({ name: `${name}-inner` }), { inputs: { approval: "approval" }, outputs: { log: "ilog", approval: "approval" } });
    }
  });
  steps.forEach((s, i) => {
    const next = i + 1 < steps.length ? `s${i + 1}` : END;
    if (s.kind === "loop") b.addConditionalEdge(`s${i}`, (st) => ((st["turns"] as number) > 0 ? `s${i}` : next));
    else b.addEdge(`s${i}`, next);
  });
  return { graph: b.setEntry("s0").compile({ name: "plan", onWarning: () => {} }) as unknown as CompiledGraph<StateRecord, unknown>, runs };
}

function property(make: () => Checkpointer): fc.IAsyncProperty<[Step[], number]> {
  return fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), fc.nat(), async (steps, pick) => {
    const sites = sitesOf(steps);
    // Pauses in the outermost graph: there the §6 overlay onto the invocation state is the paused
    // node's update. (A nested pause overlays the outermost state too, and the subgraph resumes with
    // its own saved state — test/suspension covers that shape.)
    const top = sites.filter((site) => !site.includes("."));
    if (top.length === 0) return;
    const pause = top[pick % top.length]!;
    const reference = await build(steps, pause, "reference").graph.invoke({});
    const { graph, runs } = build(steps, pause, "suspend");
    const runner = withSuspension(graph, { checkpointer: make() });
    const paused = await runner.invoke({});
    expect(paused.outcome, `pause at ${pause}`).to.equal("suspended");
    const loop = /^s(\d+)@(\d+)$/.exec(pause);
    const times = loop ? (steps[Number(loop[1])] as { times: number }).times : 0;
    const turns = loop ? (Number(loop[2]) + 1 < times ? Number(loop[2]) + 1 : 0) : undefined;
    const payload = { approval: `payload@${pause}`, ...(turns !== undefined ? { turns } : {}) };
    const done = await runner.invoke({}, { resumeInvocation: paused.invocationId, signalPayload: payload });
    expect(done.outcome).to.equal("completed");
    expect(done.invocationId).to.equal(paused.invocationId);
    expect(done.state, `final state after a pause at ${pause}`).to.deep.equal(reference.state);
    for (const site of sites) expect(runs.get(site) ?? 0, `executions of ${site} (pause at ${pause})`).to.equal(1);
  });
}

describe("suspension/resume property: pause anywhere, resume with the payload, same as returning it", function () {
  this.timeout(120_000);

  itOnBothBackends(property, { memory: 60, sqlite: 30, seed: 3 });
});
