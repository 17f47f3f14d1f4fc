/**
 * The contract every benchmark scenario implements (one file per scenario in `bench/scenarios/`).
 *
 * A scenario describes one workload and provides three runners that perform *the same work*:
 * `ours` (openarmature's graph engine), `langgraph` (LangGraph.js) and `floor` (plain async
 * functions doing the same state merges, no framework). Each runner factory is called once, untimed,
 * to build its graph; the harness then times calls to the returned {@link Workload.run} and checks
 * that every implementation returned the same (canonicalized) value.
 */

/** The implementations compared, in table order. */
export const IMPLEMENTATIONS = ["ours", "langgraph", "floor"] as const;
export type ImplId = (typeof IMPLEMENTATIONS)[number];

/** What a runner factory and {@link Scenario.plan} receive. */
export interface RunContext {
  /** `--quick`: smaller plan (smoke run, < 30 s in total). */
  readonly quick: boolean;
}

/** A prepared implementation of a scenario. */
export interface Workload {
  /**
   * One timed unit of work: exactly {@link ScenarioPlan.stepsPerUnit} node executions. Resolves
   * with the value verified across implementations (e.g. the final state); everything the unit
   * needs to finish — observer delivery included — must be done before it resolves.
   */
  run(): Promise<unknown>;
  /**
   * Optional smaller, untimed warm-up unit ({@link ScenarioPlan.warmupSteps} node executions) for
   * scenarios whose unit is long. Defaults to {@link run}.
   */
  warmup?(): Promise<unknown>;
  /** Release resources (temp files, database handles) after the scenario. */
  dispose?(): void | Promise<void>;
}

/** Builds one implementation's workload (untimed: compile graphs, open databases, ...). */
export type RunnerFactory = (ctx: RunContext) => Workload | Promise<Workload>;

/** How much work the harness does for a scenario. */
export interface ScenarioPlan {
  /** Node executions in one {@link Workload.run} call (the µs/step denominator). */
  readonly stepsPerUnit: number;
  /** Human description of one unit, e.g. `"10 invocations × 100 nodes"`. */
  readonly unitLabel: string;
  /**
   * Interleaved rounds: in each round every implementation takes its samples, in a rotating
   * order. The slowest implementation takes one sample (one unit) per round.
   */
  readonly rounds: number;
  /** Stop early after this many rounds once {@link timeBudgetMs} is spent (default: `rounds`). */
  readonly minRounds?: number;
  /** Soft wall-clock budget for the timed rounds of this scenario (default: unlimited). */
  readonly timeBudgetMs?: number;
  /** Node executions in one {@link Workload.warmup} call (required when `warmup` is provided). */
  readonly warmupSteps?: number;
  /** Minimum warm-up calls per implementation (default 2). */
  readonly warmupCalls?: number;
  /**
   * The value every implementation's `run()` must produce (canonicalized like the runs). Optional:
   * implementations are always compared with each other; this also pins them to the right answer.
   */
  readonly expected?: unknown;
}

/** A benchmark scenario (the default export of a file in `bench/scenarios/`). */
export interface Scenario {
  /** Unique, kebab-case; selects it with `--scenario NAME`. */
  readonly name: string;
  /** One line for the table and README: what is measured. */
  readonly description: string;
  /** Sort key for the table (then by name). */
  readonly order?: number;
  /** Printed under the table: methodology choices (e.g. which LangGraph feature is the equivalent). */
  readonly notes?: readonly string[];
  /**
   * Name of a scenario doing the same work minus one added cost (e.g. the same chain without a
   * checkpointer). When both run, the report adds "overhead vs baseline" rows: per implementation,
   * this scenario's median µs/step minus the baseline's (= the added cost per step).
   */
  readonly baseline?: string;
  readonly plan: (ctx: RunContext) => ScenarioPlan;
  readonly runners: { readonly [K in ImplId]: RunnerFactory };
}

/** Identity helper that type-checks a scenario definition. */
export function defineScenario(s: Scenario): Scenario {
  return s;
}
