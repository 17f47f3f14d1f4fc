/**
 * Free-variable analysis (strict undefined, prompt-management §8): the names a template reads that
 * it does not bind itself (`for`, `set`, `macro`, `with`), minus the engine's globals. Like the
 * checks of Jinja2's `StrictUndefined`, it counts a name read only by `{% if %}`; a name tested
 * with `is defined` / `is undefined` or passed through `| default` is left to the render-time check.
 * Flow-insensitive: a name bound anywhere in the template is not free.
 */
import { childrenOf, type Node, type Stmt } from "./ast.ts";
import { GLOBAL_NAMES } from "./methods.ts";

const ENGINE_NAMES = new Set([...GLOBAL_NAMES, "loop"]);

export function freeVariables(body: readonly Stmt[]): Set<string> {
  const read = new Set<string>();
  const bound = new Set<string>();
  const guarded = new Set<string>();
  const visit = (n: Node): void => {
    switch (n.type) {
      case "name":
        read.add(n.name);
        return;
      case "for":
        for (const t of n.targets) bound.add(t);
        break;
      case "set":
        if (n.target.kind === "names") for (const t of n.target.names) bound.add(t);
        else read.add(n.target.object);
        break;
      case "setblock":
        bound.add(n.name);
        break;
      case "macro":
        bound.add(n.name);
        for (const [p] of n.params) bound.add(p);
        break;
      case "with":
        for (const [name] of n.assignments) bound.add(name);
        break;
      case "filter":
        if ((n.name === "default" || n.name === "d") && n.input.type === "name") {
          guarded.add(n.input.name);
          for (const a of n.args) visit(a);
          for (const [, a] of n.kwargs) visit(a);
          return;
        }
        break;
      case "test":
        if ((n.name === "defined" || n.name === "undefined") && n.input.type === "name") {
          guarded.add(n.input.name);
          return;
        }
        break;
    }
    for (const c of childrenOf(n)) visit(c);
  };
  for (const n of body) visit(n);
  for (const name of [...bound, ...guarded, ...ENGINE_NAMES]) read.delete(name);
  return read;
}
