import js from "@eslint/js"
import globals from "globals"
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.svelte-kit/**",
      "**/build/**",
      "**/.turbo/**",
      "**/.generated/**",
      "**/.code-check/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "no-empty": ["error", { allowEmptyCatch: true }],
      // `import { type A } from "./a"` still loads ./a under `verbatimModuleSyntax`: written
      // `import type`, it is gone at run time, as the import-cycle check (scripts/cycles.mjs)
      // takes it to be.
      "@typescript-eslint/no-import-type-side-effects": "error",
    },
  },
)
