// The dependency ranges @latch/sv writes into an app, read from the workspace at build time:
// Latch's packages at their current versions, and the drivers at the ranges Latch's own
// packages develop and test against.
import { readFileSync } from "node:fs"

const manifest = (name) =>
  JSON.parse(readFileSync(new URL(`../${name}/package.json`, import.meta.url), "utf8"))

export function dependencyVersions() {
  const pg = manifest("pg-adapter").devDependencies
  const core = manifest("core").devDependencies
  return {
    "@latch/sveltekit": `^${manifest("sveltekit").version}`,
    "@latch/pg-adapter": `^${manifest("pg-adapter").version}`,
    "@latch/drizzle-adapter": `^${manifest("drizzle-adapter").version}`,
    "@electric-sql/pglite": pg["@electric-sql/pglite"],
    pg: pg.pg,
    "@types/pg": pg["@types/pg"],
    nodemailer: core.nodemailer,
    "@types/node": manifest("core").devDependencies["@types/node"],
  }
}
