/**
 * Once per run, before the test files: the last release is built (lib/release.mjs; kept in the
 * system's temporary directory for the next run), and PostgreSQL is installed if need be, so
 * that a missing server fails the run rather than skipping its tests.
 */
import type { TestProject } from "vitest/node"
import { ensurePostgres } from "latch-test-servers"
import { buildRelease } from "../lib/release.mjs"

export interface Release {
  /** The unpacked, built repository of the release. */
  root: string
  label: string
  source: string
  commit: string
}

declare module "vitest" {
  export interface ProvidedContext {
    release: Release
  }
}

export default async function setup(project: TestProject) {
  await ensurePostgres()
  const started = Date.now()
  const release = buildRelease({ log: (line: string) => console.log(`upgrade test: ${line}`) })
  console.log(
    `upgrade test: from ${release.label} (${release.source})` +
      (release.reused
        ? `, built before in ${release.root}`
        : `, built in ${Math.round((Date.now() - started) / 1000)} s`),
  )
  project.provide("release", {
    root: release.root,
    label: release.label,
    source: release.source,
    commit: release.commit,
  })
}
