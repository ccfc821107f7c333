import { ensurePostgres } from "../../pg-adapter/test/postgres-server.js"
import { ensureBetterSqlite } from "./native-sqlite.js"

/** Once per run, before the test files start: PostgreSQL is installed (with apt-get if need
 * be) and better-sqlite3's binding built, so that no two files race to do either. */
export default async function setup() {
  ensureBetterSqlite()
  await ensurePostgres()
}
