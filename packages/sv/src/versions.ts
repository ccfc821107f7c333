/**
 * The version ranges the add-on writes into the app's package.json: Latch's packages at the
 * versions this add-on was built with, and the drivers at the ranges Latch is tested against.
 * Filled in by build.mjs (and vitest.config.ts) from the workspace's package.json files.
 */
declare const __LATCH_VERSIONS__: Record<string, string>

export const versions: Record<string, string> = __LATCH_VERSIONS__

export function version(name: string): string {
  const range = versions[name]
  if (!range) throw new Error(`@latch/sv was built without a version for ${name}`)
  return range
}
