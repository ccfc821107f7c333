// Load with faults: a minute of mixed traffic against the built demo on a throwaway PostgreSQL,
// during which PostgreSQL is restarted once and the SMTP server is stopped for a while. Then:
// every session made before the fault still reads, no answer was a 5xx other than a 503 with
// Retry-After while the database was down, the same demo process answers (no restart), sign-in
// and email sign-in work again, and resident memory stays flat (its slope is reported).
//
//   node soak.mjs [--seconds 60]      (pnpm soak)
//
// Results: reliability/results/soak.json. Exits non-zero when an assertion fails.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { fileURLToPath } from "node:url"
import { startMailbox } from "latch-mailbox"
import { startPostgres } from "../scripts/postgres.mjs"
import { ALICE, BOB, SECRET, buildDemo, freePort, startDemo } from "./lib/demo.mjs"
import { saveResults } from "./lib/results.mjs"
import { rssMiB, slope, timeline } from "./lib/soak/stats.mjs"
import {
  readSession,
  requestEmail,
  send,
  signInWithPassword,
  signOut,
} from "./lib/soak/traffic.mjs"

/** Whether an answer shows what only the operator should see. */
const leaks = (body = "") =>
  /\n\s+at .+:\d+:\d+|ECONNREFUSED|127\.0\.0\.1:\d+|pg-adapter|postgres(ql)?:\/\//i.test(body) ||
  body.includes(SECRET)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Requests in flight at once: the demo, PostgreSQL and this harness share two cores. */
const CONCURRENCY = 6
/** Sessions made before the fault, that must all read afterwards. */
const PRE_FAULT_SESSIONS = 20
/** How long PostgreSQL stays down. */
const DATABASE_DOWN_MS = 3_000
/**
 * After PostgreSQL accepts connections again, a request may still fail for a moment: one that
 * was waiting for a connection from the pool when the server came back, or whose query went out
 * on a connection the restart had killed just before pg noticed. Two seconds covers that with
 * room (the demo answers in tens of milliseconds under this load); a 503 later than that means
 * the app did not recover by itself.
 */
const GRACE_MS = 2_000

/** What the traffic is made of, with weights. */
const MIX = [
  ["anonymous page", 20],
  ["session page", 20],
  ["session read", 25],
  ["sign-in", 12],
  ["sign-out", 12],
  ["email sign-in", 6],
]

function pick(random) {
  const total = MIX.reduce((sum, [, weight]) => sum + weight, 0)
  let r = random() * total
  for (const [kind, weight] of MIX) if ((r -= weight) < 0) return kind
  return MIX[0][0]
}

/** A small seeded generator, so that a run's mix can be repeated. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Runs the soak; resolves to the results (also saved as results/soak.json). */
export async function runSoak({ seconds = 60, seed = 1, log = console.log } = {}) {
  const durationMs = seconds * 1000
  const faults = {
    databaseStopAtMs: Math.round(durationMs * (20 / 60)),
    smtpStopAtMs: Math.round(durationMs * (35 / 60)),
    smtpDownMs: Math.round(durationMs * (10 / 60)),
  }
  log("• building the packages and the demo")
  buildDemo()
  const cleanups = []
  const mailboxDir = mkdtempSync(join(tmpdir(), "latch-soak-mail-"))
  cleanups.push(() => rmSync(mailboxDir, { recursive: true, force: true }))
  try {
    log("• starting PostgreSQL, the SMTP sink and the demo")
    const database = await startPostgres({ database: "latch_soak" })
    cleanups.unshift(() => database.stop())
    const smtpPort = await freePort()
    let mailbox = await startMailbox({ host: "127.0.0.1", port: smtpPort, dir: mailboxDir })
    cleanups.unshift(() => mailbox?.close())
    const demo = await startDemo({
      databaseUrl: database.url,
      smtp: `smtp://127.0.0.1:${smtpPort}`,
      mailboxDir,
      env: { ADDRESS_HEADER: "x-forwarded-for", XFF_DEPTH: "1" },
    })
    cleanups.unshift(() => demo.stop())
    const { origin, pid } = demo
    // What the demo logs about errors, counted as it comes (its kept output is only the tail):
    // the database's failures should be a few lines, not one per failed request.
    const errorLog = { lines: 0, kinds: new Map() }
    let pending = ""
    const count = (chunk) => {
      const lines = (pending + chunk).split("\n")
      pending = lines.pop()
      for (const line of lines) {
        if (!line.startsWith("[latch][error]") && !line.startsWith("[demo]")) continue
        errorLog.lines++
        const kind = line.replace(/\d+/g, "#").slice(0, 160)
        errorLog.kinds.set(kind, (errorLog.kinds.get(kind) ?? 0) + 1)
      }
    }
    demo.child.stdout.on("data", count)
    demo.child.stderr.on("data", count)

    log(`• ${PRE_FAULT_SESSIONS} sessions before the fault`)
    const users = [ALICE, BOB]
    const preFault = []
    for (let i = 0; i < PRE_FAULT_SESSIONS; i++) {
      const user = users[i % users.length]
      const result = await signInWithPassword(origin, user)
      if (!result.cookie) throw new Error(`signing in ${user.username} failed: ${result.status}`)
      preFault.push({ user, cookie: result.cookie })
    }

    const random = mulberry32(seed)
    const records = []
    const memory = []
    const events = []
    const fresh = []
    let emails = 0
    let lostReads = 0
    let leaked = 0
    const bodies = new Set()
    const start = performance.now()
    const now = () => performance.now() - start
    const record = (kind, result, startedAt) => {
      records.push({
        kind,
        start: startedAt / 1000,
        end: now() / 1000,
        status: result.status,
        retryAfter: result.retryAfter ?? null,
        ...(result.error && { error: result.error }),
      })
      // What a failing answer said, to check it tells nothing an operator would not publish.
      if (result.status >= 500 && bodies.size < 20) bodies.add(result.body?.slice(0, 500) ?? "")
      if (result.status >= 500 && leaks(result.body)) leaked++
    }

    async function one() {
      const kind = pick(random)
      const startedAt = now()
      const someone = preFault[Math.floor(random() * preFault.length)]
      switch (kind) {
        case "anonymous page": {
          const path = ["/", "/about", "/signin"][Math.floor(random() * 3)]
          return record(kind, await send(origin, path), startedAt)
        }
        case "session page": {
          const path = ["/", "/protected", "/profile"][Math.floor(random() * 3)]
          return record(
            kind,
            await send(origin, path, { headers: { cookie: someone.cookie } }),
            startedAt,
          )
        }
        case "session read": {
          const result = await readSession(origin, someone.cookie)
          // A session made before the fault must never read as signed out: a 503 is the only
          // acceptable answer while the database is down.
          if (result.status === 200 && result.user !== someone.user.name) {
            lostReads++
            events.push({
              atMs: Math.round(startedAt),
              event: "pre-fault session read as signed out",
            })
          }
          return record(kind, result, startedAt)
        }
        case "sign-in": {
          const user = users[Math.floor(random() * users.length)]
          const result = await signInWithPassword(origin, user)
          if (result.cookie) fresh.push(result.cookie)
          return record(kind, result, startedAt)
        }
        case "sign-out": {
          const cookie = fresh.shift()
          if (!cookie) {
            const result = await signInWithPassword(origin, users[0])
            if (result.cookie) fresh.push(result.cookie)
            return record("sign-in", result, startedAt)
          }
          const results = await signOut(origin, cookie)
          for (const result of results) record(kind, result, startedAt)
          return undefined
        }
        case "email sign-in": {
          const results = await requestEmail(origin, `soak-${++emails}@example.com`)
          for (const result of results) record(kind, result, startedAt)
          return undefined
        }
      }
    }

    const faultTimes = {}
    async function databaseFault() {
      await sleep(faults.databaseStopAtMs)
      faultTimes.databaseStopMs = Math.round(now())
      log(`• t=${(now() / 1000).toFixed(1)} s: stopping PostgreSQL`)
      await database.stopServer()
      faultTimes.databaseStoppedMs = Math.round(now())
      await sleep(DATABASE_DOWN_MS)
      faultTimes.databaseStartMs = Math.round(now())
      await database.startServer()
      faultTimes.databaseReadyMs = Math.round(now())
      log(`• t=${(now() / 1000).toFixed(1)} s: PostgreSQL accepts connections again`)
    }
    async function smtpFault() {
      await sleep(faults.smtpStopAtMs)
      faultTimes.smtpStopMs = Math.round(now())
      log(`• t=${(now() / 1000).toFixed(1)} s: stopping the SMTP server`)
      const closing = mailbox
      mailbox = undefined
      await closing.close()
      await sleep(faults.smtpDownMs)
      mailbox = await startMailbox({ host: "127.0.0.1", port: smtpPort, dir: mailboxDir })
      faultTimes.smtpStartMs = Math.round(now())
      log(`• t=${(now() / 1000).toFixed(1)} s: the SMTP server is back`)
    }
    const sampler = setInterval(() => {
      const rss = rssMiB(pid)
      if (rss !== undefined) memory.push([now() / 1000, rss])
    }, 1000)

    log(`• ${seconds} s of mixed traffic, ${CONCURRENCY} requests at a time`)
    const worker = async () => {
      while (now() < durationMs) await one()
    }
    await Promise.all([
      ...Array.from({ length: CONCURRENCY }, worker),
      databaseFault(),
      smtpFault(),
    ])
    const trafficMs = Math.round(now())
    // A few idle seconds: memory after the run, not only during it.
    await sleep(5_000)
    clearInterval(sampler)

    log("• checking the aftermath")
    const checks = []
    const check = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail })

    const window = {
      fromMs: faultTimes.databaseStopMs,
      toMs: faultTimes.databaseReadyMs + GRACE_MS,
    }
    const inWindow = (r) => r.end * 1000 >= window.fromMs && r.start * 1000 <= window.toMs
    const unavailable = records.filter((r) => r.status === 503)
    const other5xx = records.filter((r) => r.status >= 500 && r.status !== 503)
    const noAnswer = records.filter((r) => r.status === 0)
    check("no 5xx other than 503", other5xx.length === 0, `${other5xx.length} other 5xx`)
    check(
      "every 503 carries Retry-After",
      unavailable.every((r) => r.retryAfter !== null),
      `${unavailable.filter((r) => r.retryAfter === null).length} without`,
    )
    check(
      "every 503 falls in the database outage (plus grace)",
      unavailable.every(inWindow),
      `${unavailable.filter((r) => !inWindow(r)).length} outside ` +
        `[${(window.fromMs / 1000).toFixed(1)} s, ${(window.toMs / 1000).toFixed(1)} s]`,
    )
    check("every request was answered", noAnswer.length === 0, `${noAnswer.length} unanswered`)
    check(
      "no 5xx answer shows a stack, the secret or the database's address",
      leaked === 0,
      `${leaked} leaking`,
    )
    check("no pre-fault session read as signed out", lostReads === 0, `${lostReads} lost reads`)

    let stillRead = 0
    for (const { user, cookie } of preFault) {
      const result = await readSession(origin, cookie)
      if (result.status === 200 && result.user === user.name) stillRead++
    }
    check(
      "every pre-fault session still reads",
      stillRead === preFault.length,
      `${stillRead}/${preFault.length}`,
    )
    const alive = demo.child.exitCode === null && demo.child.signalCode === null
    const home = await send(origin, "/")
    check(
      "the same demo process answers (no restart)",
      alive && demo.child.pid === pid && home.status === 200,
      `pid ${pid}, GET / ${home.status}`,
    )
    const again = await signInWithPassword(origin, ALICE)
    const againRead = again.cookie ? await readSession(origin, again.cookie) : undefined
    check(
      "sign-in works again",
      againRead?.user === ALICE.name,
      `sign-in ${again.status}, session ${againRead?.status}`,
    )
    const address = `soak-after-${Date.now()}@example.com`
    const [, emailed] = await requestEmail(origin, address)
    let delivered = false
    try {
      await mailbox.nextFor(address, 10_000)
      delivered = true
    } catch {
      delivered = false
    }
    check(
      "email sign-in works again after SMTP returns",
      emailed?.location?.includes("/auth/verify-request") && delivered,
      `${emailed?.status} → ${emailed?.location}, mail ${delivered ? "delivered" : "missing"}`,
    )

    // Memory: a warm-up (the first sixth of the run) left out, then the least-squares slope.
    const warmUp = seconds / 6
    const measured = memory.filter(([t]) => t >= warmUp)
    const perSecond = slope(measured)
    const rss = {
      samples: memory.length,
      warmUpSeconds: warmUp,
      startMiB: round(measured[0]?.[1]),
      endMiB: round(measured.at(-1)?.[1]),
      minMiB: round(Math.min(...measured.map(([, y]) => y))),
      maxMiB: round(Math.max(...measured.map(([, y]) => y))),
      slopeMiBPerMinute: round(perSecond * 60),
      series: memory.map(([t, y]) => [round(t), round(y)]),
    }

    const byKind = {}
    for (const r of records) {
      const entry = (byKind[r.kind] ??= { requests: 0, 503: 0, other5xx: 0, errors: 0 })
      entry.requests++
      if (r.status === 503) entry[503]++
      else if (r.status >= 500) entry.other5xx++
      else if (r.status === 0) entry.errors++
    }
    const results = {
      command: `node reliability/soak.mjs --seconds ${seconds}`,
      seconds,
      trafficMs,
      concurrency: CONCURRENCY,
      seed,
      preFaultSessions: PRE_FAULT_SESSIONS,
      mix: Object.fromEntries(MIX),
      faults: {
        ...faultTimes,
        databaseDownMs: faultTimes.databaseReadyMs - faultTimes.databaseStopMs,
        smtpDownMs: faultTimes.smtpStartMs - faultTimes.smtpStopMs,
        graceMs: GRACE_MS,
        window503Ms: window,
      },
      totals: {
        requests: records.length,
        requestsPerSecond: round(records.length / (trafficMs / 1000)),
        "2xx": records.filter((r) => r.status >= 200 && r.status < 300).length,
        "3xx": records.filter((r) => r.status >= 300 && r.status < 400).length,
        "4xx": records.filter((r) => r.status >= 400 && r.status < 500).length,
        503: unavailable.length,
        other5xx: other5xx.length,
        errors: noAnswer.length,
        first503s: round(Math.min(...unavailable.map((r) => r.start))),
        last503s: round(Math.max(...unavailable.map((r) => r.end))),
        retryAfter: [...new Set(unavailable.map((r) => r.retryAfter))],
        byKind,
      },
      preFaultStillRead: `${stillRead}/${preFault.length}`,
      memory: rss,
      // Error lines the demo logged (once per kind of failure, not per request), and their kinds.
      errorLogLines: errorLog.lines,
      errorLogKinds: Object.fromEntries(errorLog.kinds),
      answers5xx: [...bodies],
      events,
      checks,
      timeline: timeline(records, Math.ceil(trafficMs / 1000)),
    }
    saveResults("soak", results)
    return results
  } finally {
    for (const cleanup of cleanups) {
      try {
        await cleanup()
      } catch {
        // Cleaning up what is left; the run's outcome is already decided.
      }
    }
  }
}

function round(value) {
  return value === undefined || !Number.isFinite(value) ? null : Math.round(value * 100) / 100
}

function summarize(results) {
  const { totals, faults, memory, checks } = results
  const lines = [
    "",
    `Soak: ${results.seconds} s, ${totals.requests} requests (${totals.requestsPerSecond}/s), ` +
      `${results.concurrency} at a time`,
    `  answers: 2xx ${totals["2xx"]}, 3xx ${totals["3xx"]}, 4xx ${totals["4xx"]}, ` +
      `503 ${totals[503]}, other 5xx ${totals.other5xx}, no answer ${totals.errors}`,
    `  PostgreSQL down ${(faults.databaseStopMs / 1000).toFixed(1)}–` +
      `${(faults.databaseReadyMs / 1000).toFixed(1)} s; 503s from ${totals.first503s} s to ` +
      `${totals.last503s} s (Retry-After ${totals.retryAfter.join(", ") || "-"})`,
    `  SMTP down ${(faults.smtpStopMs / 1000).toFixed(1)}–${(faults.smtpStartMs / 1000).toFixed(1)} s`,
    `  memory: ${memory.startMiB} → ${memory.endMiB} MiB after a ${memory.warmUpSeconds} s ` +
      `warm-up, slope ${memory.slopeMiBPerMinute} MiB/min`,
    `  pre-fault sessions still reading: ${results.preFaultStillRead}; error log lines: ` +
      `${results.errorLogLines}`,
    "  per second (requests / 503 / other 5xx / no answer):",
    ...chunk(results.timeline, 10).map(
      (rows) =>
        "   " +
        rows.map((r) => `${r.second}:${r.requests}/${r[503]}/${r.other5xx}/${r.errors}`).join(" "),
    ),
    ...checks.map((c) => `  ${c.ok ? "✓" : "✗"} ${c.name} (${c.detail})`),
    "",
  ]
  return lines.join("\n")
}

function chunk(items, size) {
  const out = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { seconds: { type: "string", default: "60" }, seed: { type: "string", default: "1" } },
  })
  const results = await runSoak({ seconds: Number(values.seconds), seed: Number(values.seed) })
  console.log(summarize(results))
  process.exit(results.checks.every((c) => c.ok) ? 0 : 1)
}
