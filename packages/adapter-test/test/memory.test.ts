import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAdapterConformance } from "../src/index.js"
import { memoryAdapter } from "./memory-adapter.js"

// Core's in-memory test adapter, completed (see memory-adapter.ts for what it lacked).
runAdapterConformance("memory adapter", async () => ({ adapter: memoryAdapter() }), {
  describe,
  it,
  expect,
  beforeAll,
  afterAll,
})
