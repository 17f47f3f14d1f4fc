/**
 * What a call produced, as typed facets the executor fills and assertions read
 * (conformance-adapter §8.4 *What an assertion reads*).
 */
import { HarnessPrimitiveMissing, type FixtureLocation } from "./errors.ts";

/** A typed key for one kind of observed data (final state, events, drain summary, ...). */
export class Facet<T> {
  constructor(readonly name: string) {}
  /** Typing helper; never called. */
  declare readonly _type?: T;
}

export class Observation {
  private readonly facets = new Map<Facet<unknown>, unknown>();
  constructor(
    /** The invocation's name, or null for the single call / the case scope. */
    readonly label: string | null,
    /** The calls this observation covers (one for a call, all for a case-level aggregate). */
    readonly calls: ReadonlyArray<Observation> = [],
  ) {}

  set<T>(facet: Facet<T>, value: T): this {
    this.facets.set(facet as Facet<unknown>, value);
    return this;
  }
  has(facet: Facet<unknown>): boolean {
    return this.facets.has(facet);
  }
  /** The facet's value; a facet the executor did not produce is `harness_primitive_missing`. */
  get<T>(facet: Facet<T>, where: FixtureLocation): T {
    if (!this.facets.has(facet as Facet<unknown>)) {
      throw new HarnessPrimitiveMissing(facet.name, `the run produced no '${facet.name}' to assert on`, where);
    }
    return this.facets.get(facet as Facet<unknown>) as T;
  }
  tryGet<T>(facet: Facet<T>): T | undefined {
    return this.facets.get(facet as Facet<unknown>) as T | undefined;
  }

  /** A copy of this observation with some facets replaced (e.g. the events an invariant reads). */
  derive(label: string | null = this.label): Observation {
    const d = new Observation(label, this.calls);
    for (const [k, v] of this.facets) d.facets.set(k, v);
    return d;
  }

  /** A case-level view over several calls: facets read from the last call unless aggregated. */
  static aggregate(calls: ReadonlyArray<Observation>): Observation {
    const agg = new Observation(null, calls);
    const last = calls[calls.length - 1];
    if (last) for (const [k, v] of last.facets) agg.facets.set(k, v);
    return agg;
  }
}
