import { defineConfig } from "vitest/config"
import { onConsoleLog } from "./test/helpers/test-output.js"

export default defineConfig({
  test: { onConsoleLog },
})
