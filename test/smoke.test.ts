import { expect } from "chai";
describe("toolchain", () => {
  it("runs TypeScript tests under mocha", () => {
    expect(1 + 1).to.equal(2);
  });
});
