/** The template engine: Jinja2-style syntax, strict undefined that names the variable (§8), determinism (§13). */
import { expect } from "chai";
import { renderTemplate, templateVariables } from "../../src/prompts/index.ts";
import { failure } from "./helpers.ts";

describe("prompts: template engine", () => {
  it("renders Jinja2-style variables, filters, loops and conditionals", () => {
    const out = renderTemplate("{{ who | upper }}:{% for x in xs %} {{ loop.index }}={{ x }}{% endfor %}{% if flag %}!{% endif %}", { who: "ann", xs: ["a", "b"], flag: true });
    expect(out).to.equal("ANN: 1=a 2=b!");
  });

  it("does not HTML-escape (prompts are not HTML)", () => {
    expect(renderTemplate("{{ s }}", { s: "<b>&\"" })).to.equal("<b>&\"");
  });

  it("names every undefined variable, including one read only by {% if %}", () => {
    const e = failure(() => renderTemplate("Hello {{ user }}, {% if admin %}hi{% endif %} {{ day }}", { user: "a" }));
    expect(e.missing).to.deep.equal(["admin", "day"]);
    expect(e.message).to.contain("'admin'").and.contain("'day'");
  });

  it("treats a variable present with value undefined as missing", () => {
    expect(failure(() => renderTemplate("{{ x }}", { x: undefined })).missing).to.deep.equal(["x"]);
  });

  it("exempts names bound by the template, builtins, `is defined` tests and `| default`", () => {
    const src = "{% set s = 1 %}{{ s }}{% for a in range(2) %}{{ a }}{{ loop.index }}{% endfor %}{% if x is defined %}{{ x }}{% endif %}{{ z | default('q') }}";
    expect(templateVariables(src)).to.deep.equal([]);
    expect(renderTemplate(src, {})).to.equal("10112q");
  });

  it("reports a missing attribute or a null value at render time (throwOnUndefined)", () => {
    expect(failure(() => renderTemplate("{{ u.nmae }}", { u: { name: "x" } })).message).to.match(/undefined or null/);
    expect(failure(() => renderTemplate("{{ u }}", { u: null })).message).to.match(/undefined or null/);
  });

  it("reports a syntax error as a parse failure", () => {
    expect(failure(() => renderTemplate("Hi {{ user", { user: "a" })).message).to.match(/does not parse/);
  });

  it("renders an undefined value as empty when strict is off (§8 opt-out)", () => {
    expect(renderTemplate("a{{ x }}b", {}, { strict: false })).to.equal("ab");
  });

  it("is deterministic and substitutes in place (§13): a later variable never shifts earlier bytes", () => {
    const src = "You are {{ p }}.\n\nAnswer: {{ q }}";
    const a = renderTemplate(src, { p: "a writer", q: "short" });
    const b = renderTemplate(src, { p: "a writer", q: "a much longer question" });
    expect(a).to.equal(renderTemplate(src, { p: "a writer", q: "short" }));
    expect(a.slice(0, a.indexOf("short"))).to.equal(b.slice(0, b.indexOf("a much")));
  });
});
