// `node --import ./register.mjs`: installs hook.mjs, which logs every module resolution.
import { register } from "node:module";

register("./hook.mjs", import.meta.url);
