// A rehype plugin: code blocks whose fence names a language (```python) are highlighted by
// lowlight (highlight.js) with the languages of code-languages.ts only; others are left as text.
import type { Element, ElementContent, Root } from "hast";
import { createLowlight } from "lowlight";
import { codeLanguages } from "./code-languages.js";

const lowlight = createLowlight(codeLanguages);

export function highlightCode() {
  return (tree: Root) => visit(tree);
}

function visit(node: Root | Element) {
  for (const child of node.children) {
    if (child.type !== "element") continue;
    if (child.tagName === "pre") {
      const code = child.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
      if (code) highlight(code);
    } else visit(child);
  }
}

function highlight(code: Element) {
  const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
  const language = classes.find((name) => name.startsWith("language-"))?.slice("language-".length);
  if (!language || !lowlight.registered(language)) return;
  const text = code.children.map((child) => (child.type === "text" ? child.value : "")).join("");
  const result = lowlight.highlight(language, text);
  code.children = result.children as ElementContent[];
  code.properties.className = [...classes, "hljs"];
}
