// What a password derivation costs on each runtime Latch runs on: the `Password` provider at its
// defaults, through `Auth()`, in the program of the runtimes check (runtimes/src/hash-bench.ts),
// bundled per runtime as runtimes/ does. Per runtime: the median time of a sign-up (one scrypt
// derivation, plus a request through `Auth()` that costs about a millisecond), and the peak
// resident memory of the runtime's process (`VmHWM` in /proc/<pid>/status, read every 10 ms while
// it runs) above a baseline run of the same program that derives nothing. workerd runs through
// miniflare; its process is miniflare's child. `node password-runtimes.mjs` prints the table;
// Linux only (/proc). Needs `pnpm run build` and runtimes/'s install (Bun, Deno, miniflare).
import { spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { binary, versionOf } from "../runtimes/lib/binaries.mjs"
import { bundle } from "../runtimes/lib/bundle.mjs"
import { currentCompatibilityDate, startWorker } from "../runtimes/lib/runners.mjs"
import { isMain, median, QUICK, runAsScript } from "./lib/common.mjs"

const DERIVATIONS = QUICK ? 3 : 9
const MiB = 1024 * 1024

/** The peak resident memory of a process so far, in bytes (`undefined` once it is gone). */
function peakOf(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb ? Number(kb) * 1024 : undefined
  } catch {
    return undefined
  }
}

/** Reads a process's peak every 10 ms until `stop()`; returns the last value read. */
function watch(pid) {
  let peak = 0
  const read = () => (peak = Math.max(peak, peakOf(pid) ?? 0))
  const timer = setInterval(read, 10)
  return () => {
    read()
    clearInterval(timer)
    return peak
  }
}

function runProcess(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: tmpdir(), stdio: ["ignore", "pipe", "inherit"] })
    const stop = watch(child.pid)
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.once("error", reject)
    child.once("close", () => {
      const peak = stop()
      const line = output.split("\n").find((l) => l.startsWith("LATCH-RESULTS "))
      if (!line) return reject(new Error(`${command} printed no results: ${output.slice(-400)}`))
      resolve({ ...JSON.parse(line.slice(14)), peak })
    })
  })
}

/** The workerd process miniflare started (a child of this process). */
function workerdPid() {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8").trim()
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/.exec(stat)
      if (comm.startsWith("workerd") && Number(rest.split(" ")[1]) === process.pid) {
        return Number(entry)
      }
    } catch {}
  }
  throw new Error("no workerd process found")
}

async function runWorker(file, compatibilityFlags, count) {
  const mf = await startWorker(file, {
    compatibilityDate: currentCompatibilityDate(),
    compatibilityFlags,
  })
  try {
    const stop = watch(workerdPid())
    const response = await mf.dispatchFetch(`http://localhost/?count=${count}`)
    const result = await response.json()
    return { ...result, peak: stop() }
  } finally {
    await mf.dispose()
  }
}

export async function runPasswordRuntimes() {
  const started = performance.now()
  const files = await bundle(["node", "bun", "deno", "workerd"], { program: "hash" })
  const processRuntime = (name, file, flags = []) => ({
    name,
    run: async (count) =>
      runProcess(await binary(name.replace(/ .*/, "")), [...flags, file, String(count)]),
    version: async () =>
      versionOf(await binary(name.replace(/ .*/, "")))
        .replace(/ \(.*/, "")
        .replace(/^deno /, ""),
  })
  const runtimes = [
    processRuntime("node20", files.node),
    processRuntime("node22", files.node),
    processRuntime("node24", files.node),
    processRuntime("bun", files.bun),
    {
      ...processRuntime("deno", files.deno),
      run: async (count) =>
        runProcess(await binary("deno"), ["run", "-A", files.deno, String(count)]),
    },
    {
      name: "workerd",
      run: (count) => runWorker(files.workerd, [], count),
      version: async () => `compatibility date ${currentCompatibilityDate()}`,
    },
    {
      name: "workerd + nodejs_compat",
      run: (count) => runWorker(files.workerd, ["nodejs_compat"], count),
      version: async () => `compatibility date ${currentCompatibilityDate()}`,
    },
  ]
  const rows = []
  for (const runtime of runtimes) {
    const version = await runtime.version()
    const baseline = await runtime.run(0)
    const measured = await runtime.run(DERIVATIONS)
    const error = baseline.error ?? measured.error
    rows.push({
      name: runtime.name,
      version,
      error,
      ms: error ? undefined : median(measured.ms),
      memory: error ? undefined : (measured.peak - baseline.peak) / MiB,
      baseline: baseline.peak / MiB,
    })
  }
  const table = [
    "| Runtime | Version | Median time per derivation | Peak memory above the baseline | Baseline peak |",
    "| --- | --- | ---: | ---: | ---: |",
    ...rows.map((row) =>
      row.error
        ? `| ${row.name} | ${row.version} | fails: ${row.error.replace(/\|/g, "\\|").slice(0, 160)} | — | ${row.baseline.toFixed(1)} MiB |`
        : `| ${row.name} | ${row.version} | ${row.ms.toFixed(0)} ms | +${row.memory.toFixed(1)} MiB | ${row.baseline.toFixed(1)} MiB |`,
    ),
  ].join("\n")
  const seconds = (performance.now() - started) / 1000
  const measured = rows.filter((row) => !row.error)
  const range = (values) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`
  const summary = measured.length
    ? `Password derivation per runtime: ${range(measured.map((row) => row.ms))} ms and ` +
      `+${range(measured.map((row) => row.memory))} MiB above the baseline on ` +
      `${measured.length} of ${rows.length} runtimes` +
      (rows.length > measured.length
        ? ` (failing: ${rows
            .filter((r) => r.error)
            .map((r) => r.name)
            .join(", ")})`
        : "")
    : "Password derivation per runtime: no runtime measured"
  return { rows, table, derivations: DERIVATIONS, seconds, summary, markdown: markdown(table) }
}

/** The README's section: what is measured, and the table. */
function markdown(table) {
  return `## Password hashing per runtime

What a \`Password\` derivation costs on each runtime Latch runs on. What is measured
(\`bench/password-runtimes.mjs\`, \`pnpm --filter latch-bench run bench:password-runtimes\`, Linux
only, after \`pnpm run build\`): the program of the runtimes check (\`runtimes/src/hash-bench.ts\`),
bundled per runtime as \`runtimes/\` bundles it, makes ${DERIVATIONS} \`Password\` sign-ups through \`Auth()\` in a
row (each one scrypt derivation at the provider's defaults, N = 2^15, r = 8, p = 3, 32 MiB; the
sign-up budgets off so that each hashes). workerd without \`nodejs_compat\` has no \`node:crypto\`:
there the same scrypt runs in plain JavaScript (core's \`romix.ts\`). The time is the median sign-up
(the request through \`Auth()\` adds about a millisecond). The memory is the peak resident memory
of the runtime's process (\`VmHWM\` in \`/proc/<pid>/status\`, read every 10 ms; for workerd,
miniflare's \`workerd\` child) minus that of a baseline run of the same program that derives
nothing: more than the derivation's 32 MiB where the runtime keeps the freed block, or grows its
heap for the request, at the same time. Time is one run on the machine below: compare runtimes
within a run, not across runs.

${table}
`
}

if (isMain(import.meta.url)) {
  runAsScript(async () => {
    const { table, derivations } = await runPasswordRuntimes()
    console.log(`\nPassword sign-ups through Auth(), ${derivations} per runtime (medians):\n`)
    console.log(table)
  })
}
