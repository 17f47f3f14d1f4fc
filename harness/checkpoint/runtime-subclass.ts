/**
 * `runtime_state_subclass: {schema_version: <v>}` (pipeline-utilities note, fixture 055): the
 * invocation's initial state is an instance of a subclass of the declared state class whose
 * `schema_version` shadows the declared one. In TypeScript the state is structurally typed, so the
 * "declared class" is a class whose instances carry the state's fields as own properties and whose
 * `schemaVersion` / `schema_version` (static and on the prototype, so not state fields) is the
 * graph's declared version; the runtime subclass overrides both.
 */

/** The declared state class of a graph with schema version `declared`. */
function declaredClass(declared: string | undefined): new (fields: Readonly<Record<string, unknown>>) => Record<string, unknown> {
  class DeclaredState {
    static readonly schemaVersion = declared;
    static readonly schema_version = declared;
    constructor(fields: Readonly<Record<string, unknown>>) {
      Object.assign(this, fields);
    }
    get schemaVersion(): string | undefined {
      return declared;
    }
    get schema_version(): string | undefined {
      return declared;
    }
  }
  return DeclaredState as unknown as new (fields: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

/** An instance of a subclass of the declared state class overriding its schema version with `override`. */
export function runtimeSubclassInstance(fields: Readonly<Record<string, unknown>>, declared: string | undefined, override: string): Record<string, unknown> {
  const Base = declaredClass(declared);
  class RuntimeSubclass extends Base {
    static readonly schemaVersion = override;
    static readonly schema_version = override;
    get schemaVersion(): string {
      return override;
    }
    get schema_version(): string {
      return override;
    }
  }
  return new RuntimeSubclass(fields);
}
