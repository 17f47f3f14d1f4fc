/**
 * The template language (src/prompts/README.md "Templates"): the Jinja2 subset the interpreter
 * supports, each case with the output Jinja2 gives (numbers print as JavaScript numbers: `2.0` is `2`).
 */
import { expect } from "chai";
import { renderTemplate } from "../../src/prompts/index.ts";
import { failure } from "./helpers.ts";

const V = { user: { name: "ann", tags: ["a", "b"] }, xs: [3, 1, 2], d: { b: 2, a: 1 }, s: "  Hello World  ", n: 7, f: 2.5, t: true, nul: null, items: [{ n: "x", ok: true }, { n: "y", ok: false }] };
const CASES: [string, string][] = [
  ["{{ user.name }} {{ user['name'] }} {{ user.tags[1] }} {{ user.tags.0 }}", "ann ann b a"],
  ["{# c #}a {#- c -#} b", "ab"],
  ["a  {%- if t %} x {% endif -%}  b", "a x b"],
  ["{% if n > 10 %}big{% elif n > 5 %}mid{% else %}small{% endif %}", "mid"],
  ["{% for x in xs %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}{{ loop.last }}{{ loop.length }};{% endfor %}", "103TrueFalse3;212FalseFalse3;321FalseTrue3;"],
  ["{% for k, v in d.items() %}{{ k }}={{ v }},{% endfor %}", "b=2,a=1,"],
  ["{% for k in d %}{{ k }}{% endfor %}", "ba"],
  ["{% for x in [] %}x{% else %}empty{% endfor %}", "empty"],
  ["{% for a, b in [[1, 2], (3, 4)] %}{{ a + b }} {% endfor %}", "3 7 "],
  ["{% set x = 5 %}{% set y, z = 1, 2 %}{{ x }}{{ y }}{{ z }}", "512"],
  ["{% raw %}{{ not rendered }}{% endraw %}", "{{ not rendered }}"],
  ["{% macro greet(who, punct='!') %}Hi {{ who }}{{ punct }}{% endmacro %}{{ greet('bo') }} {{ greet('al', punct='?') }}", "Hi bo! Hi al?"],
  ["{{ 'a' ~ 1 ~ true }} {{ 1 + 2 * 3 }} {{ 7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 7 / 2 }}", "a1True 7 3 1 2 1024 3.5"],
  ["{{ 'yes' if t else 'no' }} {{ 'yes' if nul else 'no' }}", "yes no"],
  ["{{ 'a' in 'cat' }} {{ 2 in xs }} {{ 'a' in d }} {{ 5 not in xs }}", "True True True True"],
  ["{{ 1 < n < 10 }} {{ n == 7 and not nul }} {{ nul or 'x' }}", "True True x"],
  ["{{ xs | sort | join(',') }} {{ xs | sort(reverse=true) | first }} {{ xs | length }} {{ xs | sum }} {{ xs | min }} {{ xs | max }}", "1,2,3 3 3 6 1 3"],
  ["{{ s | trim | upper }}|{{ s | lower | trim }}|{{ 'hello world' | title }}|{{ 'hELLO' | capitalize }}", "HELLO WORLD|hello world|Hello World|Hello"],
  ["{{ missing | default('q') }} {{ '' | default('e', true) }} {{ nul | d('z', boolean=true) }}", "q e z"],
  ["{{ d | tojson }} {{ [1, 'a', none] | tojson }}", "{\"a\": 1, \"b\": 2} [1, \"a\", null]"],
  ["{{ xs }} {{ d }} {{ t }} {{ [none, 'it\\'s'] }}", "[3, 1, 2] {'b': 2, 'a': 1} True [None, \"it's\"]"],
  ["{{ '3' | int + 1 }} {{ '2.5' | float }} {{ 2.567 | round(2) }} {{ -3 | abs }} {{ 'x' | int }} {{ 2.5 | round }}", "4 2.5 2.57 3 0 3"],
  ["{{ 'a,b,c'.split(',') | reverse | join('-') }} {{ ' x '.strip() }} {{ 'abc'.upper() }} {{ 'ab'.startswith('a') }} {{ '-'.join(['a','b']) }} {{ 'aXbX'.replace('X', '_') }}", "c-b-a x ABC True a-b a_b_"],
  ["{{ d.keys() | list | sort | join }} {{ d.values() | sum }} {{ d.get('a') }} {{ d.get('z', 0) }}", "ab 3 1 0"],
  ["{% for i in range(3) %}{{ i }}{% endfor %} {{ range(1, 10, 3) | list }} {{ range(5, 0, -2) | join(',') }}", "012 [1, 4, 7] 5,3,1"],
  ["{{ x is defined }} {{ n is number }} {{ s is string }} {{ d is mapping }} {{ xs is iterable }} {{ n is odd }} {{ 4 is even }} {{ nul is none }} {{ 9 is divisibleby 3 }} {{ n is not none }}", "False True True True True True True True True True"],
  ["{{ items | selectattr('ok') | map(attribute='n') | join }} {{ items | rejectattr('ok') | map(attribute='n') | first }} {{ xs | select('odd') | list }}", "x y [3, 1]"],
  ["{{ 'abcdef'[1:3] }} {{ xs[::-1] }} {{ 'abc'[-1] }} {{ xs[-1] }}", "bc [2, 1, 3] c 2"],
  ["{{ 'line1\\nline2' | indent(2) }}|{{ 'a b c' | wordcount }}|{{ 'hello world foo' | truncate(9, leeway=0) }}", "line1\n  line2|3|hello..."],
  ["{% set ns = namespace(found=false) %}{% for x in xs %}{% if x == 1 %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.found }}", "True"],
  ["{% with a = 1, b = 2 %}{{ a + b }}{% endwith %}", "3"],
  ["{% filter upper %}hi {{ n }}{% endfilter %}", "HI 7"],
  ["{% set block %}x{{ n }}{% endset %}{{ block }}", "x7"],
  ["{{ [1,2,3,4,5] | batch(2) | list }}", "[[1, 2], [3, 4], [5]]"],
  ["{{ [1,1,2] | unique | list }} {{ 'AbA' | list | unique | join }}", "[1, 2] Ab"],
  ["{{ dict(a=1) }} {{ {'k': [1]} }}", "{'a': 1} {'k': [1]}"],
  ["{% for x in xs if x > 1 %}{{ x }}{{ loop.length }}{% endfor %}", "3222"],
  ["{{ 'x' * 3 }} {{ [0] * 2 }}", "xxx [0, 0]"],
  ["{{ '%s is %d' | format('a', 3) }}", "a is 3"],
  ["{{ d | dictsort }}", "[['a', 1], ['b', 2]]"],
  ["{% for x in xs %}{{ loop.cycle('o', 'e') }}{% endfor %}", "oeo"],
  ["{{ \"double\" 'concat' }}", "doubleconcat"],
  ["{{ 1_000 + 0.5 }} {{ 1e3 }}", "1000.5 1000"],
  ["{{ user.nope | default('d') }} {{ user.tags | first | upper }}", "d A"],
  ["{%- for x in xs -%}\n  {{ x }}\n{%- endfor %}", "312"],
];

describe("prompts: template language", () => {
  for (const [src, want] of CASES) {
    it(`renders ${JSON.stringify(src).slice(0, 90)}`, () => {
      expect(renderTemplate(src, V)).to.equal(want);
    });
  }

  it("names the line and the cause of a syntax error", () => {
    expect(failure(() => renderTemplate("a\n{% if x %}b", { x: 1 })).message).to.match(/does not parse: line 2: .*endif/);
    expect(failure(() => renderTemplate("{{ x | nosuchfilter }}", { x: 1 })).message).to.match(/no filter named 'nosuchfilter'/);
    expect(failure(() => renderTemplate("{{ x is nosuchtest }}", { x: 1 })).message).to.match(/no test named 'nosuchtest'/);
    expect(failure(() => renderTemplate("{% include 'other.j2' %}", {})).message).to.match(/unknown or misplaced tag 'include'/);
    expect(failure(() => renderTemplate("{{ 'open }}", {})).message).to.match(/unterminated string/);
    expect(failure(() => renderTemplate("{# never closed", {})).message).to.match(/unclosed comment/);
  });

  it("strict mode refuses to print or iterate an undefined or null value, naming the expression", () => {
    expect(failure(() => renderTemplate("{{ u.nmae }}", { u: { name: "x" } })).message).to.match(/'u\.nmae' is undefined/);
    expect(failure(() => renderTemplate("{% for x in u.items %}{% endfor %}", { u: {} })).message).to.match(/'u\.items' is undefined or null and cannot be iterated/);
    expect(failure(() => renderTemplate("{{ 'a' ~ u.b }}", { u: {} })).message).to.match(/'u\.b' is undefined/);
    // A condition reads an undefined attribute as false, as before.
    expect(renderTemplate("{% if u.b %}y{% else %}n{% endif %}", { u: {} })).to.equal("n");
  });

  it("lenient mode renders undefined and null as empty and iterates them as empty", () => {
    expect(renderTemplate("[{{ u.b }}{{ n }}{% for x in u.c %}x{% endfor %}{{ u.b | upper }}]", { u: {}, n: null }, { strict: false })).to.equal("[]");
  });

  it("accepts nunjucks' {% elseif %} and points a JS `.length` to the filter", () => {
    expect(renderTemplate("{% if n > 9 %}a{% elseif n > 5 %}b{% endif %}", V)).to.equal("b");
    expect(failure(() => renderTemplate("{{ xs.length }}", V)).message).to.match(/\| length/);
  });

  it("refuses type errors with a message, not a JS coercion", () => {
    expect(failure(() => renderTemplate("{{ 'a' + 1 }}", {})).message).to.match(/'\+' needs numbers/);
    expect(failure(() => renderTemplate("{{ 1 / 0 }}", {})).message).to.match(/division by zero/);
    expect(failure(() => renderTemplate("{{ [1] < 'a' }}", {})).message).to.match(/cannot order a list and a string/);
  });

  it("prints a date in ISO 8601 and a bigint as digits", () => {
    expect(renderTemplate("{{ d }} {{ b }}", { d: new Date(Date.UTC(2024, 0, 2)), b: 12345678901234567890n })).to.equal("2024-01-02T00:00:00.000Z 12345678901234567890");
  });

  it("keeps a trailing newline and does not trim blocks (nunjucks' and Jinja2's defaults except keep_trailing_newline)", () => {
    expect(renderTemplate("{% if true %}\nx\n{% endif %}\n", {})).to.equal("\nx\n\n");
  });
});
