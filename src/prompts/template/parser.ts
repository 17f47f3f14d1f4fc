/**
 * The parser: tokens to a syntax tree (recursive descent, Jinja2's grammar and precedence).
 * Nesting is bounded twice: the recursion of the descent itself (parentheses, brackets, `not`,
 * unary minus, nested blocks) and, after parsing, the depth of the whole tree (long operator or
 * attribute chains build deep trees without recursing), so neither parsing nor evaluation can
 * overflow the stack.
 */
import { childrenOf, type CompareOp, type Expr, type FilterCall, type Node, type SetTarget, type Stmt } from "./ast.ts";
import { TemplateFailure } from "./failure.ts";
import { syntaxError, tokenize, type Token } from "./lexer.ts";
import { FILTER_NAMES, TEST_NAMES } from "./filters.ts";

export interface ParsedTemplate {
  readonly body: readonly Stmt[];
  /** The depth of the deepest node (checked against `maxDepth`). */
  readonly depth: number;
}

const KEYWORDS_ENDING_TEST_ARG = new Set(["else", "or", "and", "if", "in", "not", "is"]);
const BLOCK_TAGS = "if, elif (elseif), else, endif, for, endfor, set, endset, macro, endmacro, with, endwith, filter, endfilter, raw";

export function parseTemplate(source: string, maxDepth: number): ParsedTemplate {
  const parser = new Parser(tokenize(source), maxDepth);
  const body = parser.parseBody([]).body;
  const depth = treeDepth(body, maxDepth);
  return { body, depth };
}

function nestingError(line: number, maxDepth: number): TemplateFailure {
  return new TemplateFailure(`template does not parse: line ${line}: nested deeper than maxDepth (${maxDepth})`, [], { limit: "maxDepth" });
}

/** The depth of the deepest node, walked with an explicit stack (the tree may be deeper than the call stack allows). */
function treeDepth(body: readonly Stmt[], maxDepth: number): number {
  let max = 0;
  const stack: Array<[Node, number]> = body.map((n) => [n, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) {
      max = depth;
      if (max > maxDepth) throw nestingError(node.line, maxDepth);
    }
    for (const c of childrenOf(node)) stack.push([c, depth + 1]);
  }
  return max;
}

class Parser {
  #pos = 0;
  #nesting = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly maxDepth: number,
  ) {}

  // --- token helpers -----------------------------------------------------------------------------

  private get current(): Token {
    return this.tokens[this.#pos]!;
  }
  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.#pos + offset, this.tokens.length - 1)]!;
  }
  private advance(): Token {
    const t = this.current;
    if (this.#pos < this.tokens.length - 1) this.#pos++;
    return t;
  }
  private isOp(value: string): boolean {
    return this.current.kind === "op" && this.current.value === value;
  }
  private isName(value?: string): boolean {
    return this.current.kind === "name" && (value === undefined || this.current.value === value);
  }
  private fail(message: string, token: Token = this.current): never {
    throw syntaxError(token.line, message);
  }
  private describe(t: Token): string {
    switch (t.kind) {
      case "eof":
        return "the end of the template";
      case "var_end":
        return "'}}'";
      case "block_end":
        return "'%}'";
      case "text":
        return "text";
      case "string":
        return `string ${JSON.stringify(t.value)}`;
      default:
        return `'${t.value}'`;
    }
  }
  private expectOp(value: string): Token {
    if (!this.isOp(value)) this.fail(`expected '${value}', found ${this.describe(this.current)}`);
    return this.advance();
  }
  private expectName(what = "a name"): string {
    if (this.current.kind !== "name") this.fail(`expected ${what}, found ${this.describe(this.current)}`);
    return this.advance().value;
  }
  private expectKeyword(word: string): void {
    if (!this.isName(word)) this.fail(`expected '${word}', found ${this.describe(this.current)}`);
    this.advance();
  }
  private expectBlockEnd(): void {
    if (this.current.kind !== "block_end") this.fail(`expected '%}', found ${this.describe(this.current)}`);
    this.advance();
  }
  private enter(line: number): void {
    if (++this.#nesting > this.maxDepth) throw nestingError(line, this.maxDepth);
  }
  private leave(): void {
    this.#nesting--;
  }

  // --- statements --------------------------------------------------------------------------------

  /** Statements up to one of `endTags` (returned) or the end of the template (when `endTags` is empty). */
  parseBody(endTags: readonly string[]): { body: Stmt[]; end: string } {
    const body: Stmt[] = [];
    for (;;) {
      const t = this.current;
      switch (t.kind) {
        case "eof":
          if (endTags.length > 0) this.fail(`unexpected end of template: expected ${endTags.map((e) => `{% ${e} %}`).join(" or ")}`);
          return { body, end: "" };
        case "text":
          this.advance();
          body.push({ type: "text", line: t.line, value: t.value });
          break;
        case "var_begin": {
          this.advance();
          const expr = this.parseExpression();
          if (this.current.kind !== "var_end") this.fail(`expected '}}', found ${this.describe(this.current)}`);
          this.advance();
          body.push({ type: "output", line: t.line, expr });
          break;
        }
        case "block_begin": {
          const tag = this.peek();
          if (tag.kind !== "name") this.fail(`expected a tag name after '{%', found ${this.describe(tag)}`, tag);
          if (endTags.includes(tag.value)) {
            this.advance();
            this.advance();
            return { body, end: tag.value };
          }
          this.advance();
          body.push(this.parseStatement());
          break;
        }
        default:
          this.fail(`unexpected ${this.describe(t)}`);
      }
    }
  }

  private parseStatement(): Stmt {
    const tag = this.advance();
    this.enter(tag.line);
    try {
      switch (tag.value) {
        case "if":
          return this.parseIf(tag.line);
        case "for":
          return this.parseFor(tag.line);
        case "set":
          return this.parseSet(tag.line);
        case "macro":
          return this.parseMacro(tag.line);
        case "with":
          return this.parseWith(tag.line);
        case "filter":
          return this.parseFilterBlock(tag.line);
        default:
          return this.fail(`unknown or misplaced tag '${tag.value}' (the template engine knows: ${BLOCK_TAGS})`, tag);
      }
    } finally {
      this.leave();
    }
  }

  private parseIf(line: number): Stmt {
    const branches: Array<readonly [Expr, readonly Stmt[]]> = [];
    let test = this.parseExpression();
    this.expectBlockEnd();
    for (;;) {
      const { body, end } = this.parseBody(["elif", "elseif", "else", "endif"]);
      branches.push([test, body]);
      if (end === "elif" || end === "elseif") {
        test = this.parseExpression();
        this.expectBlockEnd();
        continue;
      }
      if (end === "else") {
        this.expectBlockEnd();
        const rest = this.parseBody(["endif"]);
        this.expectBlockEnd();
        return { type: "if", line, branches, otherwise: rest.body };
      }
      this.expectBlockEnd();
      return { type: "if", line, branches, otherwise: null };
    }
  }

  private parseTargets(): string[] {
    const names = [this.expectName("a loop variable")];
    while (this.isOp(",")) {
      this.advance();
      names.push(this.expectName("a loop variable"));
    }
    return names;
  }

  private parseFor(line: number): Stmt {
    let targets: string[];
    if (this.isOp("(")) {
      this.advance();
      targets = this.parseTargets();
      this.expectOp(")");
    } else targets = this.parseTargets();
    this.expectKeyword("in");
    const iter = this.parseExpression(false);
    let filter: Expr | null = null;
    if (this.isName("if")) {
      this.advance();
      filter = this.parseExpression(false);
    }
    if (this.isName("recursive")) this.fail("'recursive' loops are not supported");
    this.expectBlockEnd();
    const { body, end } = this.parseBody(["else", "endfor"]);
    this.expectBlockEnd();
    let otherwise: Stmt[] | null = null;
    if (end === "else") {
      otherwise = this.parseBody(["endfor"]).body;
      this.expectBlockEnd();
    }
    return { type: "for", line, targets, iter, filter, body, otherwise };
  }

  private parseSet(line: number): Stmt {
    const first = this.expectName("a variable name");
    let target: SetTarget;
    if (this.isOp(".")) {
      this.advance();
      target = { kind: "attr", object: first, attr: this.expectName("an attribute name") };
    } else {
      const names = [first];
      while (this.isOp(",")) {
        this.advance();
        names.push(this.expectName("a variable name"));
      }
      target = { kind: "names", names };
    }
    if (this.isOp("=")) {
      this.advance();
      const value = this.parseTuple();
      this.expectBlockEnd();
      return { type: "set", line, target, value };
    }
    if (target.kind !== "names" || target.names.length !== 1) this.fail("a block {% set %} assigns one name");
    const filters: FilterCall[] = [];
    while (this.isOp("|")) {
      this.advance();
      filters.push(this.parseFilterCall());
    }
    this.expectBlockEnd();
    const { body } = this.parseBody(["endset"]);
    this.expectBlockEnd();
    return { type: "setblock", line, name: first, filters, body };
  }

  private parseMacro(line: number): Stmt {
    const name = this.expectName("a macro name");
    this.expectOp("(");
    const params: Array<readonly [string, Expr | null]> = [];
    while (!this.isOp(")")) {
      if (params.length > 0) this.expectOp(",");
      if (this.isOp(")")) break;
      const p = this.expectName("a parameter name");
      if (params.some(([n]) => n === p)) this.fail(`parameter '${p}' appears twice`);
      let dflt: Expr | null = null;
      if (this.isOp("=")) {
        this.advance();
        dflt = this.parseExpression();
      } else if (params.some(([, d]) => d !== null)) this.fail(`parameter '${p}' without a default follows one with a default`);
      params.push([p, dflt]);
    }
    this.advance();
    this.expectBlockEnd();
    const { body } = this.parseBody(["endmacro"]);
    if (this.isName(name)) this.advance();
    this.expectBlockEnd();
    return { type: "macro", line, name, params, body };
  }

  private parseWith(line: number): Stmt {
    const assignments: Array<readonly [string, Expr]> = [];
    while (this.current.kind !== "block_end") {
      if (assignments.length > 0) this.expectOp(",");
      const name = this.expectName("a variable name");
      this.expectOp("=");
      assignments.push([name, this.parseExpression()]);
    }
    this.advance();
    const { body } = this.parseBody(["endwith"]);
    this.expectBlockEnd();
    return { type: "with", line, assignments, body };
  }

  private parseFilterBlock(line: number): Stmt {
    const filters = [this.parseFilterCall()];
    while (this.isOp("|")) {
      this.advance();
      filters.push(this.parseFilterCall());
    }
    this.expectBlockEnd();
    const { body } = this.parseBody(["endfilter"]);
    this.expectBlockEnd();
    return { type: "filterblock", line, filters, body };
  }

  // --- expressions -------------------------------------------------------------------------------

  /** `a, b` (without brackets) is a list, as in `{% set a, b = 1, 2 %}`. */
  private parseTuple(): Expr {
    const line = this.current.line;
    const first = this.parseExpression();
    if (!this.isOp(",")) return first;
    const items = [first];
    while (this.isOp(",")) {
      this.advance();
      if (this.current.kind === "block_end" || this.current.kind === "var_end") break;
      items.push(this.parseExpression());
    }
    return { type: "list", line, items };
  }

  parseExpression(withCondition = true): Expr {
    const line = this.current.line;
    this.enter(line);
    try {
      return this.parseConditional(line, withCondition);
    } finally {
      this.leave();
    }
  }

  private parseConditional(line: number, withCondition: boolean): Expr {
    const expr = this.parseOr();
    if (withCondition && this.isName("if")) {
      this.advance();
      const test = this.parseOr();
      let otherwise: Expr | null = null;
      if (this.isName("else")) {
        this.advance();
        otherwise = this.parseExpression();
      }
      return { type: "cond", line, test, then: expr, otherwise };
    }
    return expr;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isName("or")) {
      const line = this.advance().line;
      left = { type: "binary", line, op: "or", left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.isName("and")) {
      const line = this.advance().line;
      left = { type: "binary", line, op: "and", left, right: this.parseNot() };
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.isName("not")) {
      const line = this.advance().line;
      this.enter(line);
      try {
        return { type: "unary", line, op: "not", operand: this.parseNot() };
      } finally {
        this.leave();
      }
    }
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const line = this.current.line;
    const first = this.parseMath1();
    const rest: Array<readonly [CompareOp, Expr]> = [];
    for (;;) {
      const t = this.current;
      if (t.kind === "op" && (t.value === "==" || t.value === "!=" || t.value === "<" || t.value === ">" || t.value === "<=" || t.value === ">=")) {
        this.advance();
        rest.push([t.value, this.parseMath1()]);
      } else if (this.isName("in")) {
        this.advance();
        rest.push(["in", this.parseMath1()]);
      } else if (this.isName("not") && this.peek().kind === "name" && this.peek().value === "in") {
        this.advance();
        this.advance();
        rest.push(["not in", this.parseMath1()]);
      } else break;
    }
    return rest.length === 0 ? first : { type: "compare", line, first, rest };
  }

  private parseMath1(): Expr {
    let left = this.parseConcat();
    while (this.isOp("+") || this.isOp("-")) {
      const t = this.advance();
      left = { type: "binary", line: t.line, op: t.value as "+" | "-", left, right: this.parseConcat() };
    }
    return left;
  }

  private parseConcat(): Expr {
    let left = this.parseMath2();
    while (this.isOp("~")) {
      const t = this.advance();
      left = { type: "binary", line: t.line, op: "~", left, right: this.parseMath2() };
    }
    return left;
  }

  private parseMath2(): Expr {
    let left = this.parsePow();
    while (this.isOp("*") || this.isOp("/") || this.isOp("//") || this.isOp("%")) {
      const t = this.advance();
      left = { type: "binary", line: t.line, op: t.value as "*" | "/" | "//" | "%", left, right: this.parsePow() };
    }
    return left;
  }

  private parsePow(): Expr {
    let left = this.parseUnary();
    while (this.isOp("**")) {
      const t = this.advance();
      left = { type: "binary", line: t.line, op: "**", left, right: this.parseUnary() };
    }
    return left;
  }

  /** As Jinja2: `-x | f` filters the negation, `-x.y` negates the attribute. */
  private parseUnary(withFilter = true): Expr {
    let node: Expr;
    if (this.isOp("-") || this.isOp("+")) {
      const t = this.advance();
      this.enter(t.line);
      try {
        node = { type: "unary", line: t.line, op: t.value as "-" | "+", operand: this.parseUnary(false) };
      } finally {
        this.leave();
      }
    } else node = this.parsePrimary();
    node = this.parsePostfix(node);
    return withFilter ? this.parseFilterExpr(node) : node;
  }

  private parsePrimary(): Expr {
    const t = this.current;
    switch (t.kind) {
      case "name": {
        this.advance();
        switch (t.value) {
          case "true":
          case "True":
            return { type: "literal", line: t.line, value: true };
          case "false":
          case "False":
            return { type: "literal", line: t.line, value: false };
          case "none":
          case "None":
            return { type: "literal", line: t.line, value: null };
        }
        return { type: "name", line: t.line, name: t.value };
      }
      case "string": {
        this.advance();
        let value = t.value;
        while (this.current.kind === "string") value += this.advance().value;
        return { type: "literal", line: t.line, value };
      }
      case "number":
        this.advance();
        return { type: "literal", line: t.line, value: t.num! };
      case "op":
        if (t.value === "(" || t.value === "[" || t.value === "{") {
          this.enter(t.line);
          try {
            return this.parseBracketed(t);
          } finally {
            this.leave();
          }
        }
    }
    return this.fail(`unexpected ${this.describe(t)} where an expression was expected`);
  }

  private parseBracketed(t: Token): Expr {
    this.advance();
    if (t.value === "(") {
      if (this.isOp(")")) {
        this.advance();
        return { type: "list", line: t.line, items: [] };
      }
      const first = this.parseExpression();
      if (this.isOp(")")) {
        this.advance();
        return first;
      }
      const items = [first];
      while (this.isOp(",")) {
        this.advance();
        if (this.isOp(")")) break;
        items.push(this.parseExpression());
      }
      this.expectOp(")");
      return { type: "list", line: t.line, items };
    }
    if (t.value === "[") {
      const items: Expr[] = [];
      while (!this.isOp("]")) {
        if (items.length > 0) {
          this.expectOp(",");
          if (this.isOp("]")) break;
        }
        items.push(this.parseExpression());
      }
      this.advance();
      return { type: "list", line: t.line, items };
    }
    const pairs: Array<readonly [Expr, Expr]> = [];
    while (!this.isOp("}")) {
      if (pairs.length > 0) {
        this.expectOp(",");
        if (this.isOp("}")) break;
      }
      const key = this.parseExpression();
      this.expectOp(":");
      pairs.push([key, this.parseExpression()]);
    }
    this.advance();
    return { type: "dict", line: t.line, pairs };
  }

  private parsePostfix(node: Expr): Expr {
    for (;;) {
      const t = this.current;
      if (this.isOp(".")) {
        this.advance();
        const attr = this.current;
        if (attr.kind === "name") {
          this.advance();
          node = { type: "getattr", line: t.line, object: node, name: attr.value };
        } else if (attr.kind === "number" && Number.isInteger(attr.num)) {
          this.advance();
          node = { type: "getitem", line: t.line, object: node, key: { type: "literal", line: t.line, value: attr.num! } };
        } else this.fail(`expected an attribute name after '.', found ${this.describe(attr)}`);
      } else if (this.isOp("[")) {
        this.advance();
        node = this.parseSubscript(node, t.line);
      } else if (this.isOp("(")) {
        this.advance();
        const { args, kwargs } = this.parseArgs();
        node = { type: "call", line: t.line, callee: node, args, kwargs };
      } else return node;
    }
  }

  private parseSubscript(object: Expr, line: number): Expr {
    this.enter(line);
    try {
      const parts: Array<Expr | null> = [null];
      let colons = 0;
      while (!this.isOp("]")) {
        if (this.isOp(":")) {
          this.advance();
          colons++;
          if (colons > 2) this.fail("a slice has at most two ':'");
          parts.push(null);
        } else {
          if (parts[colons] !== null) this.fail(`expected ']' or ':', found ${this.describe(this.current)}`);
          parts[colons] = this.parseExpression();
        }
      }
      this.advance();
      if (colons === 0) {
        if (parts[0] === null) this.fail("empty subscript '[]'");
        return { type: "getitem", line, object, key: parts[0]! };
      }
      return { type: "slice", line, object, start: parts[0] ?? null, stop: parts[1] ?? null, step: parts[2] ?? null };
    } finally {
      this.leave();
    }
  }

  private parseArgs(): { args: Expr[]; kwargs: Array<readonly [string, Expr]> } {
    const args: Expr[] = [];
    const kwargs: Array<readonly [string, Expr]> = [];
    while (!this.isOp(")")) {
      if (args.length + kwargs.length > 0) {
        this.expectOp(",");
        if (this.isOp(")")) break;
      }
      if (this.current.kind === "name" && this.peek().kind === "op" && this.peek().value === "=") {
        const name = this.advance().value;
        this.advance();
        if (kwargs.some(([k]) => k === name)) this.fail(`keyword argument '${name}' given twice`);
        kwargs.push([name, this.parseExpression()]);
      } else {
        if (kwargs.length > 0) this.fail("a positional argument follows a keyword argument");
        args.push(this.parseExpression());
      }
    }
    this.advance();
    return { args, kwargs };
  }

  private parseFilterCall(): FilterCall {
    const t = this.current;
    const name = this.expectName("a filter name");
    if (!FILTER_NAMES.has(name)) this.fail(`no filter named '${name}'`, t);
    let args: Expr[] = [];
    let kwargs: Array<readonly [string, Expr]> = [];
    if (this.isOp("(")) {
      this.advance();
      ({ args, kwargs } = this.parseArgs());
    }
    return { name, args, kwargs, line: t.line };
  }

  private parseFilterExpr(node: Expr): Expr {
    for (;;) {
      if (this.isOp("|")) {
        this.advance();
        const f = this.parseFilterCall();
        node = this.parsePostfix({ type: "filter", line: f.line, input: node, name: f.name, args: f.args, kwargs: f.kwargs });
      } else if (this.isName("is")) {
        const line = this.advance().line;
        let negated = false;
        if (this.isName("not")) {
          this.advance();
          negated = true;
        }
        const t = this.current;
        let name: string;
        // `is none` / `is true` / `is false` read as names here, not literals.
        if (t.kind === "name") name = this.advance().value;
        else if (t.kind === "op" && ["==", "!=", "<", ">", "<=", ">="].includes(t.value)) name = this.advance().value;
        else return this.fail(`expected a test name after 'is', found ${this.describe(t)}`);
        if (!TEST_NAMES.has(name)) this.fail(`no test named '${name}'`, t);
        let args: Expr[] = [];
        if (this.isOp("(")) {
          this.advance();
          const parsed = this.parseArgs();
          if (parsed.kwargs.length > 0) this.fail(`test '${name}' takes no keyword arguments`);
          args = parsed.args;
        } else if (
          (this.current.kind === "name" && !KEYWORDS_ENDING_TEST_ARG.has(this.current.value)) ||
          this.current.kind === "string" ||
          this.current.kind === "number" ||
          this.isOp("[") ||
          this.isOp("{")
        ) {
          args = [this.parsePostfix(this.parsePrimary())];
        }
        node = { type: "test", line, input: node, name, args, negated };
      } else return node;
    }
  }
}
