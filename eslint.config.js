// Lint: ESLint's and typescript-eslint's recommended rules (syntax-only, so it runs in seconds),
// plus React's hook rules for the viewer. Formatting is prettier's job (`prettier --check`).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "web/dist/",
      "src/generated/",
      "src/client/generated/",
      "packages/*/dist/",
      "packages/*/node_modules/",
      "data/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a parameter or binding kept for its position or to drop it from a rest.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Size limits of docs/development.md: a function past 80 lines or a file past 300 is split by
    // meaning into named helpers or sibling files.
    files: ["src/**/*.ts"],
    ignores: ["src/generated/**", "src/client/generated/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      "max-lines": ["error", { max: 300, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly" } },
  },
  {
    // Load generators read figures back from child processes as plain JSON.
    files: ["bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // The two classic hook rules; the React Compiler's stricter ones do not apply (no compiler here).
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
);
