// Where each harness leaves its figures (reliability/results/<name>.json, committed), from which
// report.mjs writes docs/reliability.md.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const dir = fileURLToPath(new URL("../results/", import.meta.url))

/** Saves a harness's results, with when and where they were measured. */
export function saveResults(name, results) {
  mkdirSync(dir, { recursive: true })
  const record = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    ...results,
  }
  writeFileSync(`${dir}${name}.json`, `${JSON.stringify(record, null, 2)}\n`)
  return record
}

/** A harness's last saved results, or undefined. */
export function loadResults(name) {
  const file = `${dir}${name}.json`
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined
}
