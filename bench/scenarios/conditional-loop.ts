/**
 * (b) One node and a conditional edge back to itself until `count` reaches the limit (10,000
 * iterations in one invocation; 2,000 with `--quick`). The update is `{ count: count + 1 }`, so the
 * state stays small and the per-step number is the engine's loop overhead.
 */
import { Annotation } from "@langchain/langgraph";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { floorMerge } from "../lib/floor.ts";
import { LG_END, LG_START, looseStateGraph } from "../lib/langgraph.ts";
import { defineScenario, type RunContext } from "../lib/types.ts";

interface LoopState {
  readonly count: number;
  readonly limit: number;
}

const iterations = ({ quick }: RunContext): number => (quick ? 2_000 : 10_000);
/** Iterations of one (untimed) warm-up invocation. */
const warmupIterations = ({ quick }: RunContext): number => (quick ? 200 : 500);

const tick = (s: LoopState): Partial<LoopState> => ({ count: s.count + 1 });
const again = (s: LoopState): boolean => s.count < s.limit;

export default defineScenario({
  name: "conditional-loop",
  order: 20,
  description: "one node + conditional edge back to itself, 10,000 iterations in one invocation",
  notes: [
    "conditional-loop: LangGraph runs with recursionLimit = iterations + 10; warm-up uses 500-iteration invocations; --quick uses 2,000 iterations (warm-up 200).",
  ],
  plan: (ctx) => ({
    stepsPerUnit: iterations(ctx),
    unitLabel: `1 invocation × ${iterations(ctx).toLocaleString("en-US")} iterations`,
    rounds: ctx.quick ? 1 : 3,
    minRounds: ctx.quick ? 1 : 2,
    timeBudgetMs: ctx.quick ? 3_000 : 40_000,
    warmupSteps: warmupIterations(ctx),
    warmupCalls: 2,
    expected: { count: iterations(ctx), limit: iterations(ctx) },
  }),
  runners: {
    ours: (ctx) => {
      const State = defineState({ count: field.int().default(0), limit: field.int().default(0) });
      const graph = new GraphBuilder(State)
        .addNode("tick", async (s) => tick(s))
        .addConditionalEdge("tick", (s) => (again(s) ? "tick" : END))
        .setEntry("tick")
        .compile({ name: "loop" });
      const n = iterations(ctx);
      const w = warmupIterations(ctx);
      return {
        run: async () => (await graph.invoke({ limit: n })).state,
        warmup: async () => (await graph.invoke({ limit: w })).state,
      };
    },
    langgraph: (ctx) => {
      const A = Annotation.Root({
        count: Annotation<number>({ reducer: (_prior, next) => next, default: () => 0 }),
        limit: Annotation<number>({ reducer: (_prior, next) => next, default: () => 0 }),
      });
      const graph = looseStateGraph<LoopState, typeof A.spec>(A)
        .addNode("tick", async (s) => tick(s))
        .addEdge(LG_START, "tick")
        .addConditionalEdges("tick", (s) => (again(s) ? "tick" : LG_END))
        .compile();
      const n = iterations(ctx);
      const w = warmupIterations(ctx);
      return {
        run: () => graph.invoke({ limit: n }, { recursionLimit: n + 10 }),
        warmup: () => graph.invoke({ limit: w }, { recursionLimit: w + 10 }),
      };
    },
    floor: (ctx) => {
      const node = async (s: LoopState): Promise<Partial<LoopState>> => tick(s);
      const loop = async (limit: number): Promise<LoopState> => {
        let s: LoopState = { count: 0, limit };
        do s = floorMerge(s, await node(s), {});
        while (again(s));
        return s;
      };
      const n = iterations(ctx);
      const w = warmupIterations(ctx);
      return { run: () => loop(n), warmup: () => loop(w) };
    },
  },
});
