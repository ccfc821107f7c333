// End-to-end tests of the demo app (apps/demo), in Debian's Chromium: Playwright's own browser
// builds cannot be downloaded here, so `playwright install` is never needed.
import { defineConfig, devices } from "@playwright/test"

const PORT = 4173
const ORIGIN = `http://127.0.0.1:${PORT}`

export default defineConfig({
  testDir: "./tests",
  outputDir: "test-results",
  fullyParallel: false,
  // Two cores: the server and one browser share them.
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    ...devices["Desktop Chrome"],
    baseURL: ORIGIN,
    headless: true,
    colorScheme: "light",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: "pnpm --filter latch-demo build && node ../apps/demo/build/index.js",
    url: `${ORIGIN}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      HOST: "127.0.0.1",
      PORT: String(PORT),
      // adapter-node builds URLs from ORIGIN; without it, it would assume https.
      ORIGIN,
      // A fixed secret for tests only: sessions are throwaway.
      AUTH_SECRET: "latch-e2e-test-secret-not-for-production-0123456789abcdef",
    },
  },
})
