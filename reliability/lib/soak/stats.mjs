// The soak's figures: a timeline per second, and the slope of resident memory.
import { readFileSync } from "node:fs"

/** The resident memory of a process, in MiB (`VmRSS` of /proc/<pid>/status), or undefined. */
export function rssMiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** The least-squares slope of `y` over `x` (same units per unit of x), or 0 for fewer than 2. */
export function slope(points) {
  const n = points.length
  if (n < 2) return 0
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n
  let num = 0
  let den = 0
  for (const [x, y] of points) {
    num += (x - mx) * (y - my)
    den += (x - mx) ** 2
  }
  return den === 0 ? 0 : num / den
}

/** Each second's counts: requests, answers by class, 503s, other 5xx, requests with no answer. */
export function timeline(records, seconds) {
  const rows = Array.from({ length: seconds }, (_, second) => ({
    second,
    requests: 0,
    "2xx": 0,
    "3xx": 0,
    "4xx": 0,
    "5xx": 0,
    503: 0,
    other5xx: 0,
    errors: 0,
  }))
  for (const record of records) {
    const row = rows[Math.min(seconds - 1, Math.max(0, Math.floor(record.start)))]
    row.requests++
    if (record.status === 0) {
      row.errors++
      continue
    }
    row[`${Math.floor(record.status / 100)}xx`]++
    if (record.status === 503) row[503]++
    else if (record.status >= 500) row.other5xx++
  }
  return rows
}
