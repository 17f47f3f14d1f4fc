/**
 * Untrusted templates (issue 26 item 1): a template is data. It never reaches a JS global, prototype,
 * constructor, accessor or function, and its render is bounded in steps, output, source size and
 * nesting. Every payload below comes from a known Jinja / nunjucks sandbox escape, rewritten for JS.
 */
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPrompt, FilesystemPromptBackend, InMemoryPromptBackend, PromptManager, renderTemplate, TemplateFailure } from "../../src/prompts/index.ts";
import { rejection } from "./helpers.ts";

const PID = String(process.pid);
const CANARY = "__oaTemplateCanary";

/** Payload bodies that, if a function were reachable, would print the pid or set the canary global. */
const RUN = `"globalThis.${CANARY} = 1; return process.pid"`;
const RUN_SINGLE = `'globalThis.${CANARY} = 1; return process.pid'`;

const PAYLOADS: readonly string[] = [
  `{{ range.constructor(${RUN})() }}`,
  `{{ range.constructor.constructor(${RUN})() }}`,
  `{{ ''.constructor.constructor(${RUN})() }}`,
  `{{ "".constructor.constructor(${RUN})() }}`,
  `{{ (1).constructor.constructor(${RUN})() }}`,
  `{{ [].constructor.constructor(${RUN})() }}`,
  `{{ {}.constructor.constructor(${RUN})() }}`,
  `{{ [].constructor }}`,
  `{{ {}.constructor }}`,
  `{{ ''.constructor }}`,
  `{{ cycler.constructor(${RUN})() }}`,
  `{{ joiner.constructor(${RUN})() }}`,
  `{{ namespace.constructor(${RUN})() }}`,
  `{{ namespace().constructor.constructor(${RUN})() }}`,
  `{{ dict.constructor(${RUN})() }}`,
  `{{ dict().constructor.constructor(${RUN})() }}`,
  `{{ lipsum.__globals__ }}`,
  `{{ lipsum.__globals__.os.popen('id').read() }}`,
  `{% for x in [1] %}{{ loop.constructor.constructor(${RUN})() }}{% endfor %}`,
  `{% for x in [1] %}{{ loop.cycle.constructor(${RUN})() }}{% endfor %}`,
  `{{ x.__proto__ }}`,
  `{{ x.__proto__.constructor.constructor(${RUN})() }}`,
  `{{ x['__proto__']['constructor']['constructor'](${RUN})() }}`,
  `{{ x.constructor.constructor(${RUN})() }}`,
  `{{ x.prototype }}`,
  `{{ this }}`,
  `{{ this.constructor.constructor(${RUN})() }}`,
  `{{ self }}`,
  `{{ self.__init__.__globals__ }}`,
  `{{ caller }}`,
  `{{ caller.constructor(${RUN})() }}`,
  `{{ x.__class__.__mro__[1].__subclasses__() }}`,
  `{{ ''.__class__.__mro__[1].__subclasses__() }}`,
  `{{ x.__init__.__globals__ }}`,
  `{{ x.toString() }}`,
  `{{ x.toString.constructor(${RUN})() }}`,
  `{{ x.valueOf() }}`,
  `{{ x.hasOwnProperty.constructor(${RUN})() }}`,
  `{{ x.items.constructor(${RUN})() }}`,
  `{{ x.items().constructor.constructor(${RUN})() }}`,
  `{{ x.get.constructor(${RUN})() }}`,
  `{{ xs.map.constructor(${RUN})() }}`,
  `{{ xs.length.constructor.constructor(${RUN})() }}`,
  `{{ s.upper.constructor(${RUN})() }}`,
  `{{ s.constructor.fromCharCode(65) }}`,
  `{{ (x | list).constructor.constructor(${RUN})() }}`,
  `{{ (xs | first).constructor.constructor(${RUN})() }}`,
  `{{ (s | upper).constructor.constructor(${RUN})() }}`,
  `{{ (x | dictsort).constructor.constructor(${RUN})() }}`,
  `{{ (x | tojson).constructor.constructor(${RUN})() }}`,
  `{{ (xs | join).constructor.constructor(${RUN})() }}`,
  `{{ (range(3) | sort).constructor.constructor(${RUN})() }}`,
  `{% set c = range.constructor %}{{ c(${RUN})() }}`,
  `{% set f = ''.constructor.constructor %}{{ f(${RUN_SINGLE})() }}`,
  `{{ fn() }}`,
  `{{ fn }}`,
  `{{ fn | string }}`,
  `{{ fn | length }}`,
  `{{ fn.constructor(${RUN})() }}`,
  `{{ fn.call(none) }}`,
  `{{ fn.apply(none, []) }}`,
  `{{ obj.method() }}`,
  `{{ obj.method }}`,
  `{{ getter.secret }}`,
  `{{ getter['secret'] }}`,
  `{{ polluted }}`,
  `{{ x.polluted }}`,
  `{{ xs.polluted }}`,
  `{{ s.polluted }}`,
  `{{ inst.field }}`,
  `{{ inst.method() }}`,
  `{{ date.constructor.constructor(${RUN})() }}`,
  `{{ process.pid }}`,
  `{{ global.process.pid }}`,
  `{{ globalThis.process.pid }}`,
  `{{ require('child_process').execSync('id') }}`,
  `{{ x | attr('constructor') }}`,
  `{{ x | map(attribute='constructor') | list }}`,
  `{{ xs | map('constructor') | list }}`,
  `{{ xs | selectattr('constructor') | list }}`,
  `{{ xs | sort(attribute='constructor') }}`,
  `{{ x.__defineGetter__ }}`,
  `{{ x.__lookupGetter__('y') }}`,
];

class Instance {
  field = "instance-field";
  method(): string {
    return `called:${process.pid}`;
  }
}

function variables(): Record<string, unknown> {
  let reads = 0;
  const getter = {
    get secret() {
      reads++;
      (globalThis as Record<string, unknown>)[CANARY] = 1;
      return `getter:${process.pid}`;
    },
  };
  const vars: Record<string, unknown> = {
    x: { a: 1, y: "z" },
    xs: [{ a: 1 }, { a: 2 }],
    s: "text",
    date: new Date(0),
    fn: () => {
      (globalThis as Record<string, unknown>)[CANARY] = 1;
      return process.pid;
    },
    obj: {
      method() {
        (globalThis as Record<string, unknown>)[CANARY] = 1;
        return process.pid;
      },
    },
    getter,
    inst: new Instance(),
    reads: () => reads,
  };
  return vars;
}

/** A variables object whose `accessor` entry is a getter (spreading the object would run it). */
function withAccessor(): Record<string, unknown> {
  const vars = variables();
  Object.defineProperty(vars, "accessor", {
    enumerable: true,
    get() {
      (globalThis as Record<string, unknown>)[CANARY] = 1;
      return `accessor:${process.pid}`;
    },
  });
  return vars;
}

/** The render's outcome: a TemplateFailure, or the text (which must hold nothing dangerous). */
function attempt(source: string, strict: boolean): { text?: string; failure?: TemplateFailure } {
  try {
    return { text: renderTemplate(source, variables(), { strict }) };
  } catch (e) {
    if (e instanceof TemplateFailure) return { failure: e };
    throw new Error(`${source}: threw something other than a TemplateFailure: ${String(e)}`);
  }
}

describe("prompts: template security (untrusted templates)", () => {
  beforeEach(() => {
    delete (globalThis as Record<string, unknown>)[CANARY];
    Object.defineProperty(Object.prototype, "polluted", { value: `polluted:${PID}`, configurable: true, writable: true, enumerable: false });
  });
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>)["polluted"];
    delete (globalThis as Record<string, unknown>)[CANARY];
  });

  for (const strict of [true, false]) {
    describe(strict ? "strict" : "lenient", () => {
      for (const payload of PAYLOADS) {
        it(`refuses ${payload}`, () => {
          const { text } = attempt(payload, strict);
          expect((globalThis as Record<string, unknown>)[CANARY], "a JS function ran").to.equal(undefined);
          if (text !== undefined) {
            expect(text, "rendered a pid").to.not.contain(PID);
            expect(text, "rendered a function or object").to.not.match(/function|native code|=>|\[object|class |polluted|getter:|accessor:|called:|instance-field|uid=/);
          }
        });
      }
    });
  }

  it("never invokes a getter on a variable object, nor an accessor variable", () => {
    const vars = variables();
    for (const src of ["{{ getter.secret }}", "{{ getter['secret'] }}", "{{ getter | tojson }}", "{{ getter | dictsort }}", "{% for k, v in getter.items() %}{{ v }}{% endfor %}"]) {
      try {
        renderTemplate(src, vars, { strict: false });
      } catch (e) {
        expect(e).to.be.instanceOf(TemplateFailure);
      }
    }
    expect((vars["reads"] as () => number)(), "getter was invoked").to.equal(0);
    expect((globalThis as Record<string, unknown>)[CANARY]).to.equal(undefined);
    for (const strict of [true, false]) {
      try {
        expect(renderTemplate("{{ accessor }}{{ x.a }}", withAccessor(), { strict })).to.not.contain("accessor:");
      } catch (e) {
        expect(e).to.be.instanceOf(TemplateFailure);
      }
      expect((globalThis as Record<string, unknown>)[CANARY], "an accessor variable was invoked").to.equal(undefined);
    }
  });

  it("reads own data of plain objects, arrays and strings as before", () => {
    const out = renderTemplate("{{ x.a }} {{ x['y'] }} {{ xs[1].a }} {{ s[0] }} {{ xs | length }}", variables());
    expect(out).to.equal("1 z 2 t 2");
  });

  it("a prototype-polluted property is not a variable (strict names it missing)", () => {
    let failure: TemplateFailure | undefined;
    try {
      renderTemplate("{{ polluted }}", {});
    } catch (e) {
      failure = e as TemplateFailure;
    }
    expect(failure).to.be.instanceOf(TemplateFailure);
    expect(failure!.missing).to.deep.equal(["polluted"]);
  });

  it("a template cannot write to Object.prototype (mapping literals, dict(), namespace())", () => {
    const payloads = [
      "{% set d = {'__proto__': {'pwned': 1}} %}{{ d.__proto__.pwned }}",
      "{% set d = dict(__proto__={'pwned': 1}) %}{{ d['__proto__'] }}",
      "{% set ns = namespace() %}{% set ns.__proto__ = {'pwned': 1} %}{{ ns.__proto__ }}",
      "{{ {'constructor': {'prototype': {'pwned': 1}}} | tojson }}",
    ];
    for (const src of payloads) renderTemplate(src, {});
    expect(({} as Record<string, unknown>)["pwned"]).to.equal(undefined);
    expect(Object.prototype).to.not.have.property("pwned");
  });

  it("a cyclic or very deep variable is refused when printed, not a stack overflow", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    for (const src of ["{{ x }}", "{{ x | tojson }}", "{{ x == x.self }}"]) {
      let e: unknown;
      try {
        renderTemplate(src, { x: cyclic });
      } catch (err) {
        e = err;
      }
      if (src.includes("==")) continue; // identical references compare equal without a walk
      expect(e, src).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/maxDepth/);
    }
  });

  it("a Proxy, as the variables or inside them, is refused without running its traps", () => {
    let traps = 0;
    const handler: ProxyHandler<object> = {
      get: () => (traps++, "trapped"),
      getOwnPropertyDescriptor: () => (traps++, { value: "trapped", configurable: true, enumerable: true, writable: true }),
      has: () => (traps++, true),
      ownKeys: () => (traps++, ["a"]),
      getPrototypeOf: () => (traps++, Object.prototype),
    };
    for (const [src, vars] of [
      ["{{ a }}", new Proxy({ a: 1 }, handler)],
      ["{{ p.a }}", { p: new Proxy({}, handler) }],
      ["{{ p[0] }}", { p: new Proxy([1], handler) }],
    ] as const) {
      let e: unknown;
      try {
        renderTemplate(src, vars as Record<string, unknown>, { strict: false });
      } catch (err) {
        e = err;
      }
      expect(e, src).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/Proxy/);
    }
    expect(traps).to.equal(0);
  });

  it("a JSON-parsed '__proto__' key is plain data", () => {
    expect(renderTemplate("{{ x.__proto__.a }}", { x: JSON.parse('{"__proto__": {"a": "own"}}') as unknown })).to.equal("own");
  });

  describe("bounded render", () => {
    it("a 10M-iteration loop fails fast, naming the step budget", function () {
      this.timeout(60_000);
      const start = performance.now();
      let e: unknown;
      try {
        renderTemplate("{% for i in range(10000) %}{% for j in range(1000) %}x{% endfor %}{% endfor %}", {});
      } catch (err) {
        e = err;
      }
      const ms = performance.now() - start;
      expect(e).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/step budget/).and.match(/maxSteps/);
      expect(ms, `took ${ms.toFixed(0)} ms`).to.be.below(1000);
    });

    it("a single range() past its bound is refused", function () {
      this.timeout(60_000);
      const start = performance.now();
      let e: unknown;
      try {
        renderTemplate("{% for i in range(10000000) %}{% endfor %}", {});
      } catch (err) {
        e = err;
      }
      expect(e).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/range|maxRange|step budget/);
      expect(performance.now() - start).to.be.below(1000);
    });

    it("recursive macros are bounded", function () {
      this.timeout(60_000);
      let e: unknown;
      try {
        renderTemplate("{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}", {});
      } catch (err) {
        e = err;
      }
      expect(e).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/depth|maxDepth|step budget/);
    });

    it("the step budget is configurable", () => {
      const src = "{% for i in range(50) %}{{ i }}{% endfor %}";
      expect(renderTemplate(src, {}).length).to.be.greaterThan(0);
      expect(() => renderTemplate(src, {}, { limits: { maxSteps: 20 } })).to.throw(TemplateFailure, /maxSteps/);
    });

    it("huge output is refused, naming the output limit", function () {
      this.timeout(60_000);
      const start = performance.now();
      let e: unknown;
      try {
        renderTemplate("{% set s = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' %}{% for i in range(100000) %}{{ s }}{{ s }}{{ s }}{{ s }}{{ s }}{{ s }}{{ s }}{{ s }}{% endfor %}", {});
      } catch (err) {
        e = err;
      }
      expect(e).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/maxOutputLength/);
      expect(performance.now() - start).to.be.below(1000);
    });

    it("string doubling is refused before it allocates past the output limit", function () {
      this.timeout(60_000);
      let e: unknown;
      try {
        renderTemplate("{% set s = 'x' %}{% for i in range(40) %}{% set s = s ~ s %}{% endfor %}{{ s | length }}", {});
      } catch (err) {
        e = err;
      }
      // The loop body's `set` is scoped to the iteration, so this may also just render 1: either is safe.
      if (e !== undefined) expect((e as Error).message).to.match(/maxOutputLength|step budget/);
      let e2: unknown;
      try {
        renderTemplate("{{ 'x' * 100000000 }}", {});
      } catch (err) {
        e2 = err;
      }
      expect(e2).to.be.instanceOf(TemplateFailure);
      expect((e2 as Error).message).to.match(/maxOutputLength/);
    });

    it("deep nesting is refused, not a stack overflow", () => {
      const deep = [
        `{{ ${"(".repeat(100_000)}1${")".repeat(100_000)} }}`,
        `{{ ${"[".repeat(100_000)}${"]".repeat(100_000)} }}`,
        `{{ ${"not ".repeat(100_000)}x }}`,
        `{{ ${"-".repeat(100_000)}1 }}`,
        `{{ ${"1 if x else ".repeat(100_000)}2 }}`,
        `{{ ${"range(".repeat(100_000)}1${")".repeat(100_000)} }}`,
        `{{ x${".a".repeat(100_000)} }}`,
        `{{ ${"1 + ".repeat(100_000)}1 }}`,
        `{{ x${" | upper".repeat(100_000)} }}`,
        "{% if x %}".repeat(10_000) + "{% endif %}".repeat(10_000),
        // Recursive macros over deep expressions: bounded before the call stack is.
        `{% macro m(n) %}{{ ${"('' ~ ".repeat(40)}m(n + 1)${")".repeat(40)} }}{% endmacro %}{{ m(0) }}`,
      ];
      for (const src of deep) {
        let e: unknown;
        try {
          renderTemplate(src, { x: true }, { strict: false });
        } catch (err) {
          e = err;
        }
        expect(e, src.slice(0, 20)).to.be.instanceOf(TemplateFailure);
        expect((e as Error).message).to.match(/maxDepth|nest/);
      }
    });

    it("an oversized template source is refused", () => {
      let e: unknown;
      try {
        renderTemplate("x".repeat(5 * 1024 * 1024), {});
      } catch (err) {
        e = err;
      }
      expect(e).to.be.instanceOf(TemplateFailure);
      expect((e as Error).message).to.match(/maxSourceLength/);
    });

    it("a limit is a prompt_render_error naming the limit, and the manager's render options set it", () => {
      const prompt = createPrompt({ name: "loop", label: "production", version: "1", template: "{% for i in range(100) %}{{ i }}{% endfor %}" });
      const m = new PromptManager({ backends: [new InMemoryPromptBackend([prompt])], render: { templateLimits: { maxSteps: 50 } } });
      let e: unknown;
      try {
        m.render(prompt, {});
      } catch (err) {
        e = err;
      }
      expect((e as { category?: string }).category).to.equal("prompt_render_error");
      expect((e as Error).message).to.match(/maxSteps/);
    });
  });
});

describe("prompts: FilesystemPromptBackend refuses symlinks leaving the root", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "oa-prompts-link-"));
    mkdirSync(join(dir, "root", "production"), { recursive: true });
    mkdirSync(join(dir, "outside", "production"), { recursive: true });
    writeFileSync(join(dir, "outside", "secret.txt"), "SECRET {{ x }}");
    writeFileSync(join(dir, "outside", "production", "leak.j2"), "LEAKED");
    writeFileSync(join(dir, "root", "production", "ok.j2"), "fine");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a file symlink to a file outside the root is prompt_not_found, naming the refusal", async () => {
    symlinkSync(join(dir, "outside", "secret.txt"), join(dir, "root", "production", "leak.j2"));
    const b = new FilesystemPromptBackend({ root: join(dir, "root") });
    const e = await rejection(b.fetch("leak", "production"));
    expect((e as { category?: string }).category).to.equal("prompt_not_found");
    expect((e as Error).message).to.match(/outside the prompt root/);
    expect(String((e as Error).message)).to.not.contain("SECRET");
  });

  it("a symlinked label directory outside the root is refused too", async () => {
    symlinkSync(join(dir, "outside", "production"), join(dir, "root", "staging"));
    const b = new FilesystemPromptBackend({ root: join(dir, "root") });
    const e = await rejection(b.fetch("leak", "staging"));
    expect((e as { category?: string }).category).to.equal("prompt_not_found");
    expect((e as Error).message).to.match(/outside the prompt root/);
  });

  it("a symlinked sidecar outside the root is refused", async () => {
    writeFileSync(join(dir, "outside", "cfg.json"), JSON.stringify({ temperature: 0.1 }));
    symlinkSync(join(dir, "outside", "cfg.json"), join(dir, "root", "production", "ok.config.json"));
    const e = await rejection(new FilesystemPromptBackend({ root: join(dir, "root") }).fetch("ok", "production"));
    expect((e as Error).message).to.match(/outside the prompt root/);
  });

  it("a symlink that stays inside the root, and a root reached through a symlink, still work", async () => {
    symlinkSync(join(dir, "root", "production", "ok.j2"), join(dir, "root", "production", "alias.j2"));
    symlinkSync(join(dir, "root"), join(dir, "root-link"));
    const b = new FilesystemPromptBackend({ root: join(dir, "root-link") });
    expect((await b.fetch("alias", "production")).template).to.equal("fine");
    expect((await b.fetch("ok", "production")).template).to.equal("fine");
  });

  it("a file larger than maxFileBytes is refused", async () => {
    writeFileSync(join(dir, "root", "production", "big.j2"), "x".repeat(2048));
    const b = new FilesystemPromptBackend({ root: join(dir, "root"), maxFileBytes: 1024 });
    const e = await rejection(b.fetch("big", "production"));
    expect((e as Error).message).to.match(/maxFileBytes/);
  });
});
