// A title asked of a model is what a person would write: small local models answer with Markdown,
// a label or several lines ("**Title:** Fruit colours", "# Fruit colours", a title and then an
// explanation), and the list showed them as such.
import { describe, expect, it } from "vitest";
import { cleanTitle } from "../src/generation/dialog-title.js";

describe("a model's title", () => {
  it("is its first line, without Markdown, a label, quotes or a final period", () => {
    for (const answer of [
      "Fruit colours",
      "Fruit colours.",
      '"Fruit colours"',
      "“Fruit colours”",
      "**Fruit colours**",
      "# Fruit colours",
      "## **Fruit colours**",
      "Title: Fruit colours",
      "**Title:** Fruit colours",
      "Fruit colours\n\nThis title sums up the question about apples and pears.",
      "\n  Fruit colours  \n",
    ])
      expect(cleanTitle(answer), answer).toBe("Fruit colours");
  });

  it("keeps what is a title's own: inner punctuation and case", () => {
    expect(cleanTitle("C++ vs. Rust: which is faster?")).toBe("C++ vs. Rust: which is faster?");
    expect(cleanTitle("Node.js streams")).toBe("Node.js streams");
  });

  it("is nothing when nothing is left", () => {
    expect(cleanTitle("")).toBeNull();
    expect(cleanTitle("**")).toBeNull();
    expect(cleanTitle('""')).toBeNull();
  });
});
