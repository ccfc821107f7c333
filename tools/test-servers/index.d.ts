/** Options of every server. */
export interface ServerOptions {
  /**
   * Also stop the server and remove its directory on SIGINT and SIGTERM (then raise the signal
   * again). For scripts; a test runner handles signals itself. It is always done at exit.
   * @default false
   */
  signals?: boolean
}

export interface PostgresOptions extends ServerOptions {
  /** The empty database made at start. @default "latch_test" */
  database?: string
  /** The system user owning the cluster when run as root (initdb refuses root); created if
   * missing. @default "latchtest" */
  systemUser?: string
}

export interface PostgresServer {
  host: string
  port: number
  user: string
  database: string
  /** `postgresql://latch@127.0.0.1:<port>/<database>` (trust authentication). */
  connectionString: string
  /** The directory of `initdb`, `pg_ctl` and `postgres` it runs from. */
  binDir: string
  /** `pg_ctl stop -m fast`: connections are closed, the data stays. */
  stop(): Promise<void>
  /** Starts the stopped server again, on the same port. */
  start(): Promise<void>
  /** Creates another empty database on this server; returns its connection string. */
  createDatabase(name: string): Promise<string>
  /** Stops the server and removes the cluster. */
  destroy(): Promise<void>
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl (or $PG_BIN). */
export function findPostgresBin(): string | undefined
/** Finds PostgreSQL, installing Debian's package if needed, and prepares the cluster owner;
 * returns the binaries' directory. Throws when PostgreSQL cannot be had. */
export function ensurePostgres(options?: Pick<PostgresOptions, "systemUser">): Promise<string>
/** Creates, starts and returns a throwaway cluster with an empty database. */
export function startPostgres(options?: PostgresOptions): Promise<PostgresServer>

export interface MariadbOptions extends ServerOptions {
  /** The empty database made at start. @default "latch_test" */
  database?: string
}

export interface MariadbServer {
  /** `mysql://root@127.0.0.1:<port>/<database>` */
  uri: string
  port: number
  /** Kills the server and removes its data directory. */
  destroy(): Promise<void>
}

/** The server and installer binaries; throws, naming Debian's package, when they are missing. */
export function findMariadb(): { server: string; install: string }
/** Creates, starts and returns a throwaway server with an empty database. */
export function startMariadb(options?: MariadbOptions): Promise<MariadbServer>

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string
  port: number
  /** Stops the server (SIGKILL: no goodbye to the clients, as a crash). */
  stop(): Promise<void>
  /** Starts it again on the same port, empty. */
  start(): Promise<void>
  destroy(): Promise<void>
}

/** The path of `redis-server`; throws, saying what to install, when it is missing. */
export function ensureRedisServer(): string
/** Starts a throwaway redis-server without persistence. */
export function startRedis(options?: ServerOptions): Promise<RedisServer>
