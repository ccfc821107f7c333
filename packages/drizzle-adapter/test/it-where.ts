/**
 * The runner's `it`, without the session watch's cases on a database that has no watch (MySQL,
 * D1, sqlite-proxy: its absence, and core's refusal of `session.cache` there, are tested in
 * specifics.test.ts). Not declared rather than skipped: the run has no skipped test to read past.
 */
export function itWhere<It extends (name: string, ...rest: any[]) => unknown>(
  it: It,
  watch: boolean,
): It {
  if (watch) return it
  return ((name: string, ...rest: unknown[]) =>
    name.startsWith("watchSessions") ? undefined : it(name, ...rest)) as It
}
