#!/usr/bin/env node
/**
 * The `latch` command (`npx @latch/core secret`): prints a fresh `AUTH_SECRET`.
 *
 * ```
 * latch secret          AUTH_SECRET=<44 characters>, a line for .env
 * latch secret --raw    the value alone
 * latch --help          usage; an unknown command prints it to stderr and exits with 2
 * ```
 *
 * @module cli
 */
import { readFileSync } from "node:fs"
import { randomBase64url } from "./lib/crypto.js"

/** Random bytes in a generated secret: 264 bits, 44 base64url characters (no padding). */
const SECRET_BYTES = 33

const USAGE = `Usage: latch <command> [options]

Commands:
  secret          Print a fresh random secret as a .env line: AUTH_SECRET=…
                  (${SECRET_BYTES} random bytes, base64url)
    --raw         Print the value alone

Options:
  -h, --help      Show this help
  -v, --version   Show the version of @latch/core

Examples:
  npx @latch/core secret >> .env
  export AUTH_SECRET="$(npx @latch/core secret --raw)"
`

/** What a run prints and the exit code, apart from the process (so that it reads as data). */
interface Outcome {
  stdout?: string
  stderr?: string
  code: number
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  return String(manifest.version)
}

function usageError(message: string): Outcome {
  return { stderr: `latch: ${message}\n\n${USAGE}`, code: 2 }
}

function secret(options: string[]): Outcome {
  const unknown = options.filter((option) => option !== "--raw")
  if (unknown.length > 0) return usageError(`unknown option for secret: ${unknown[0]}`)
  const value = randomBase64url(SECRET_BYTES)
  return { stdout: options.includes("--raw") ? `${value}\n` : `AUTH_SECRET=${value}\n`, code: 0 }
}

/** Runs the command line `args` (without `node` and the script). */
function main(args: string[]): Outcome {
  const [command, ...rest] = args
  if (command === undefined) return usageError("missing command")
  if (command === "-h" || command === "--help" || command === "help") {
    return { stdout: USAGE, code: 0 }
  }
  if (command === "-v" || command === "--version") return { stdout: `${version()}\n`, code: 0 }
  if (command === "secret") {
    return rest.includes("-h") || rest.includes("--help")
      ? { stdout: USAGE, code: 0 }
      : secret(rest)
  }
  return usageError(`unknown command: ${command}`)
}

const outcome = main(process.argv.slice(2))
if (outcome.stdout) process.stdout.write(outcome.stdout)
if (outcome.stderr) process.stderr.write(outcome.stderr)
process.exitCode = outcome.code
