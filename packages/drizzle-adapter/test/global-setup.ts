import { ensurePostgres } from "../../pg-adapter/test/postgres-server.js"
import { FULL } from "./databases.js"
import { findMariadb } from "./mariadb-server.js"
import { ensureBetterSqlite } from "./native-sqlite.js"

/** Once per run, before the test files start: PostgreSQL is installed (with apt-get if need
 * be) and, for the full run, better-sqlite3's binding built, so that no two files race to do either. */
export default async function setup() {
  if (FULL) ensureBetterSqlite()
  await ensurePostgres()
  // Fails the run at once, naming Debian's mariadb-server package, when MariaDB is missing.
  findMariadb()
}
