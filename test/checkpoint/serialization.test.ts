/** Record serialization, document form and structural validation (§10.1, §10.2). */
import { expect } from "chai";
import { CheckpointRecordInvalidError, deserializeRecord, serializeRecord, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { decodeValue, encodeValue, fromRecordDocument, toRecordDocument, validateRecord } from "../../src/internal.ts";

const base: CheckpointRecord = {
  invocationId: "i",
  correlationId: "c",
  state: { a: 1 },
  completedPositions: [{ namespace: ["sub"], nodeName: "x", step: 3, attemptIndex: 1, fanOutIndex: 2 }],
  parentStates: [{ b: 2 }],
  schemaVersion: "v1",
  lastSavedAt: 12.5,
};

function invalid(fn: () => unknown): CheckpointRecordInvalidError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(CheckpointRecordInvalidError);
    return e as CheckpointRecordInvalidError;
  }
  expect.fail("expected checkpoint_record_invalid");
}

describe("checkpoint/serialization: tagged and portable encodings", () => {
  it("leaves JSON-native values untouched and tags only what JSON cannot carry", () => {
    expect(encodeValue({ a: [1, "x", null, true, { b: 2.5 }] })).to.deep.equal({ a: [1, "x", null, true, { b: 2.5 }] });
    expect(encodeValue([undefined, NaN, -0, Infinity, -Infinity, 5n])).to.deep.equal([
      { $oa: "undefined" },
      { $oa: "number", v: "NaN" },
      { $oa: "number", v: "-0" },
      { $oa: "number", v: "Infinity" },
      { $oa: "number", v: "-Infinity" },
      { $oa: "bigint", v: "5" },
    ]);
    expect(encodeValue(new Date(5))).to.deep.equal({ $oa: "date", v: 5 });
    expect(encodeValue(new Map([["k", new Set([1])]]))).to.deep.equal({ $oa: "map", v: [["k", { $oa: "set", v: [1] }]] });
    expect(encodeValue(Buffer.from("hi"))).to.deep.equal({ $oa: "bytes", v: "aGk=" });
  });

  it("escapes user objects that look like tags, and decodes everything back exactly", () => {
    const value = {
      look: { $oa: "bigint", v: "1" },
      nested: [{ $oa: "object" }],
      d: new Date(NaN),
      m: new Map<unknown, unknown>([[{ k: 1 }, [new Date(1)]]]),
      u: undefined,
      big: -(10n ** 30n),
    };
    const encoded = encodeValue(value);
    expect((encoded as Record<string, unknown>)["look"]).to.deep.equal({ $oa: "object", v: { $oa: "bigint", v: "1" } });
    const back = decodeValue(JSON.parse(JSON.stringify(encoded))) as typeof value;
    expect(back).to.deep.equal(value);
    expect(Number.isNaN(back.d.getTime())).to.equal(true);
    expect(decodeValue(encodeValue(new Uint8Array([1, 2])))).to.deep.equal(new Uint8Array([1, 2]));
  });

  it("rejects what cannot be restored: functions, symbols, class instances, cycles — naming the path", () => {
    class Client {
      x = 1;
    }
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(() => encodeValue({ f: () => 1 })).to.throw(TypeError, "$.f");
    expect(() => encodeValue({ s: Symbol("x") })).to.throw(TypeError);
    expect(() => encodeValue({ list: [new Client()] })).to.throw(TypeError, "instance of Client at $.list[0]");
    expect(() => encodeValue(cyclic)).to.throw(TypeError, "cyclic");
    expect(() => encodeValue(new Error("e"))).to.throw(TypeError);
    // A shared (non-cyclic) reference is fine.
    const shared = { v: 1 };
    expect(encodeValue({ a: shared, b: shared })).to.deep.equal({ a: { v: 1 }, b: { v: 1 } });
  });

  it("names the path through lists, map entries and set items; frozen input encodes as plain; holes are undefined", () => {
    const fn = (): number => 1;
    expect(() => encodeValue({ m: new Map<unknown, unknown>([["k", [1, fn]]]) })).to.throw(TypeError, "a function at $.m<value 0>[1]");
    expect(() => encodeValue({ m: new Map([[Symbol("s"), 1]]) })).to.throw(TypeError, "at $.m<key 0>");
    expect(() => encodeValue(new Set([1, [2, { x: fn }]]), "tagged", "state")).to.throw(TypeError, "at state<item 1>[1].x");
    // The path of a failure after a sibling subtree was encoded does not keep that subtree's segments.
    expect(() => encodeValue({ a: [{ b: [1] }], c: fn })).to.throw(TypeError, /at \$\.c$/);
    const frozen = Object.freeze({ list: Object.freeze([1, "a", null, true, Object.freeze({ n: NaN })]), z: -0 });
    const encoded = encodeValue(frozen);
    expect(encoded).to.deep.equal({ list: [1, "a", null, true, { n: { $oa: "number", v: "NaN" } }], z: { $oa: "number", v: "-0" } });
    expect(Object.isFrozen((encoded as { list: unknown[] }).list)).to.equal(false);
    // eslint-disable-next-line no-sparse-arrays
    expect(encodeValue([1, , 3])).to.deep.equal([1, { $oa: "undefined" }, 3]);
  });

  it("a \"__proto__\" key (from parsed JSON) is kept as an own key both ways, never taken as a prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "b": [{"__proto__": 1}]}') as Record<string, unknown>;
    for (const encoding of ["tagged", "json"] as const) {
      const text = JSON.stringify(encodeValue(value, encoding));
      expect(text).to.equal('{"__proto__":{"polluted":true},"b":[{"__proto__":1}]}');
      const back = decodeValue(JSON.parse(text) as unknown, encoding) as Record<string, unknown>;
      expect(Object.keys(back)).to.deep.equal(["__proto__", "b"]);
      expect(Object.getPrototypeOf(back)).to.equal(Object.prototype);
      expect((back as { polluted?: unknown }).polluted).to.equal(undefined);
    }
  });

  it("the portable JSON encoding accepts only JSON-native values", () => {
    expect(encodeValue({ a: [1, { b: "c" }], $oa: "kept verbatim" }, "json")).to.deep.equal({ a: [1, { b: "c" }], $oa: "kept verbatim" });
    for (const v of [undefined, NaN, -0, 1n, new Date(0), new Map(), new Set(), new Uint8Array(1)]) {
      expect(() => encodeValue({ v }, "json"), String(v)).to.throw(TypeError, "portable");
    }
  });

  it("decoding rejects unknown or malformed tags", () => {
    expect(() => decodeValue({ $oa: "nope" })).to.throw(TypeError, "unknown serialization tag");
    expect(() => decodeValue({ $oa: "bigint", v: 1 })).to.throw(TypeError, "malformed");
    expect(() => decodeValue({ $oa: "map", v: [[1]] })).to.throw(TypeError, "malformed");
  });

  it("serializeRecord / deserializeRecord round-trip a record in the snake_case document form", () => {
    const r: CheckpointRecord = { ...base, state: { when: new Date(3), n: NaN }, nextStep: 4, graphName: "g", resumedFrom: "h" };
    const text = serializeRecord(r);
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(doc).to.include({ invocation_id: "i", correlation_id: "c", schema_version: "v1", last_saved_at: 12.5, next_step: 4, graph_name: "g", resumed_from: "h" });
    expect(doc["completed_positions"]).to.deep.equal([{ namespace: ["sub"], node_name: "x", step: 3, attempt_index: 1, fan_out_index: 2 }]);
    expect(deserializeRecord(text)).to.deep.equal(r);
    const portable = serializeRecord(base, "json");
    expect(deserializeRecord(portable, "json")).to.deep.equal(base);
  });

  it("a corrupt stored text is checkpoint_record_invalid", () => {
    invalid(() => deserializeRecord("{not json"));
    invalid(() => deserializeRecord('{"invocation_id": "i"}'));
    invalid(() => deserializeRecord('{"$oa": "wat"}'));
  });
});

describe("checkpoint/record: document form and structural validation", () => {
  it("toRecordDocument / fromRecordDocument are inverse, including fan_out_progress and lineage", () => {
    const r: CheckpointRecord = {
      ...base,
      fanOutProgress: [
        {
          namespace: ["outer"],
          fanOutNodeName: "inner",
          instanceCount: 3,
          enclosingFanOutLineage: [{ namespace: [], fanOutNodeName: "outer", fanOutIndex: 1 }],
          instances: [
            { state: "completed", result: { e: 1 }, resultIsError: true },
            { state: "completed", result: 2, resultIsError: false, extraOutputs: { notes: null } },
            { state: "in_flight", resultIsError: false, completedInnerPositions: [{ namespace: ["outer", "inner"], nodeName: "s", step: 9, attemptIndex: 0, fanOutIndex: 1 }] },
          ],
        },
      ],
    };
    const doc = toRecordDocument(r);
    expect(doc.fan_out_progress![0]).to.deep.equal({
      namespace: ["outer"],
      fan_out_node_name: "inner",
      instance_count: 3,
      enclosing_fan_out_lineage: [{ namespace: [], fan_out_node_name: "outer", fan_out_index: 1 }],
      instances: [
        { state: "completed", result: { e: 1 }, result_is_error: true },
        { state: "completed", result: 2, result_is_error: false, extra_outputs: { notes: null } },
        { state: "in_flight", result_is_error: false, completed_inner_positions: [{ namespace: ["outer", "inner"], node_name: "s", step: 9, attempt_index: 0, fan_out_index: 1 }] },
      ],
    });
    expect(fromRecordDocument(doc)).to.deep.equal(r);
  });

  it("reads a seeded (fixture-style) document leniently: omitted parent_states, last_saved_at, attempt_index", () => {
    const r = fromRecordDocument({
      invocation_id: "s",
      correlation_id: "c",
      schema_version: "v1",
      state: { x: 7 },
      completed_positions: [{ namespace: ["sub"], node_name: "inner_node", step: 1 }],
    });
    expect(r).to.deep.include({ parentStates: [], lastSavedAt: 0 });
    expect(r.completedPositions).to.deep.equal([{ namespace: ["sub"], nodeName: "inner_node", step: 1, attemptIndex: 0 }]);
    expect(r.fanOutProgress).to.equal(undefined);
  });

  it("completed instances without a result get null; result_is_error must be false unless completed", () => {
    const entry = (instances: unknown[]) => ({ ...base, fanOutProgress: [{ namespace: [], fanOutNodeName: "f", instanceCount: instances.length, instances }] });
    expect(validateRecord(entry([{ state: "completed", resultIsError: false }])).fanOutProgress![0]!.instances[0]).to.deep.equal({
      state: "completed",
      result: null,
      resultIsError: false,
    });
    invalid(() => validateRecord(entry([{ state: "in_flight", resultIsError: true }])));
    invalid(() => validateRecord(entry([{ state: "paused", resultIsError: false }])));
    invalid(() => validateRecord({ ...base, fanOutProgress: [{ namespace: [], fanOutNodeName: "f", instanceCount: 3, instances: [] }] }));
  });

  it("names the first structural problem", () => {
    const cases: [unknown, string][] = [
      [null, "record must be a mapping"],
      [{ ...base, invocationId: "" }, "invocationId"],
      [{ ...base, correlationId: 3 }, "correlationId"],
      [{ ...base, state: [1] }, "state must be a mapping"],
      [{ ...base, completedPositions: {} }, "completedPositions must be a list"],
      [{ ...base, completedPositions: [{ namespace: [], nodeName: "a", step: -1 }] }, "completedPositions[0].step"],
      [{ ...base, completedPositions: [{ namespace: [1], nodeName: "a", step: 0 }] }, "completedPositions[0].namespace[0]"],
      [{ ...base, parentStates: ["x"] }, "parentStates[0]"],
      [{ ...base, schemaVersion: 2 }, "schemaVersion"],
      [{ ...base, lastSavedAt: Infinity }, "lastSavedAt"],
      [{ ...base, nextStep: 1.5 }, "nextStep"],
    ];
    for (const [r, what] of cases) expect(invalid(() => validateRecord(r)).reason, what).to.contain(what);
  });

  it("returns a frozen, normalized copy without touching the input", () => {
    const input = { ...base, completedPositions: [{ namespace: [], nodeName: "a", step: 0 }] };
    const out = validateRecord(input);
    expect(Object.isFrozen(out)).to.equal(true);
    expect(Object.isFrozen(out.completedPositions[0])).to.equal(true);
    expect(out.completedPositions[0]).to.deep.equal({ namespace: [], nodeName: "a", step: 0, attemptIndex: 0 });
    expect(input.completedPositions[0]).to.not.have.property("attemptIndex");
  });
});
