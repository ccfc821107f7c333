// The check's report: a flow × runtime table of ✓ and ✗, the runtimes' versions, why each ✗ failed, and a closing count of cells.

const FLOWS = [
  "credentials-jwt",
  "database-session",
  "password",
  "github-start",
  "email-link",
  "two-factor",
  "passkey",
  "refresh",
  "production",
]

const oneLine = (text) => text.replace(/\s*\n\s*/g, " ⏎ ")

/** Prints the report; returns the number of failed cells. */
export function printTable(rows) {
  const cell = (row, flow) => {
    if (row.failure) return { ok: false, detail: row.failure }
    const result = row.results.find((r) => r.flow === flow)
    return result ?? { ok: false, detail: "the program reported no result" }
  }
  const first = Math.max(...FLOWS.map((flow) => flow.length))
  const widths = rows.map((row) => Math.max(row.name.length, 2))
  const line = (label, cells) =>
    `${label.padEnd(first)} │ ${cells.map((text, i) => text.padEnd(widths[i])).join(" │ ")}`
  console.log("")
  for (const row of rows) console.log(`${row.name.padEnd(28)} ${row.version} (${row.ms} ms)`)
  console.log("")
  console.log(
    line(
      "",
      rows.map((row) => row.name),
    ),
  )
  console.log(`${"─".repeat(first)}─┼─${widths.map((w) => "─".repeat(w)).join("─┼─")}`)
  let passed = 0
  let failed = 0
  const failures = []
  for (const flow of FLOWS) {
    const cells = rows.map((row) => {
      const { ok, detail } = cell(row, flow)
      if (ok) passed++
      else {
        failed++
        if (!row.failure) failures.push(`✗ ${row.name} / ${flow}: ${oneLine(detail)}`)
      }
      return ok ? "✓" : "✗"
    })
    console.log(line(flow, cells))
  }
  // A runtime that ran nothing fails every cell for one reason: said once.
  for (const row of rows.filter((row) => row.failure)) {
    failures.push(`✗ ${row.name} (every flow): ${oneLine(row.failure)}`)
  }
  if (failures.length) console.log(`\n${failures.join("\n")}`)
  console.log(`\nruntimes: ${passed} passed, ${failed} failed`)
  return failed
}
