export interface RecordedReleases {
  releases: { version: string; commit: string; packages: string[] }[]
}
export interface Release {
  label: string
  commit: string
  source: string
}
export const RELEASED: string[]
export const here: string
export function releaseTags(cwd: string): { name: string; version: string; ref: string }[]
export function lastRelease(cwd: string, recorded: RecordedReleases): Release
export function recordedReleases(): RecordedReleases
export function buildDir(commit: string): string
export function buildRelease(options?: {
  log?: (line: string) => void
}): Release & { root: string; reused: boolean }
