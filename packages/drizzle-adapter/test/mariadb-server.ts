/**
 * A throwaway MariaDB server for the tests (Debian's `mariadb-server` package, on 127.0.0.1,
 * without grant tables), from the workspace's shared `latch-test-servers`. Nothing is skipped:
 * when the binaries are missing, `findMariadb()` throws and names the package to add.
 */
export { findMariadb, startMariadb, type MariadbServer } from "latch-test-servers"
