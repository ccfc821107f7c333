import { ensurePostgres } from "../../pg-adapter/test/postgres-server.js"

/** Once per run, before the test files start: PostgreSQL is installed (with apt-get if need
 * be), so that no two files race to do it. */
export default async function setup() {
  await ensurePostgres()
}
