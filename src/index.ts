/** openarmature for TypeScript — package entry. */
export * from "./graph/index.ts";
