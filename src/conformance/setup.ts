/** Loads the project's directive bundles into the default registry. */
import { fileURLToPath } from "node:url";
import { loadProjectBundles } from "./bundles.ts";
import { defaultRegistry, type DirectiveRegistry } from "./registry.ts";

export const DIRECTIVES_ROOT = fileURLToPath(new URL("../../directives", import.meta.url));

let ready: Promise<void> | null = null;

export async function loadConformance(): Promise<DirectiveRegistry> {
  ready ??= loadProjectBundles(DIRECTIVES_ROOT);
  await ready;
  return defaultRegistry;
}
