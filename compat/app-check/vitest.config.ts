import { defineConfig } from "vitest/config"
import { onConsoleLog } from "../../packages/core/test/helpers/test-output.js"

export default defineConfig({
  test: { onConsoleLog },
})
