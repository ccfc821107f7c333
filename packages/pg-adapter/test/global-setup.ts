import { ensurePostgres } from "./postgres-server.js"

/** Once per run, before the test files start: PostgreSQL is installed (with apt-get if need
 * be) and the unprivileged cluster owner exists, so that no two files race to do either. */
export default async function setup() {
  await ensurePostgres()
}
