/** README code blocks are executable documentation: every ```ts block must run. */
import { expect } from "chai";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const blocks = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);

describe("README examples", () => {
  it("has at least one TypeScript example", () => expect(blocks.length).to.be.greaterThan(0));
  it("the sessions section says sessions are last-write-wins by default and shows the optimistic mode (sessions §8)", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const start = readme.indexOf("### Sessions");
    const section = readme.slice(start, readme.indexOf("\n### ", start + 1));
    expect(section).to.contain("last-write-wins by default");
    expect(section).to.contain('concurrency: "optimistic"');
    expect(section).to.contain("session_write_conflict");
  });
  for (const [i, code] of blocks.entries()) {
    it(`example ${i + 1} runs`, async () => {
      const dir = join(root, ".oa-tmp");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `readme-${i + 1}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      const log = console.log;
      console.log = () => {};
      try {
        await import(pathToFileURL(file).href);
      } finally {
        console.log = log;
      }
    });
  }
});
