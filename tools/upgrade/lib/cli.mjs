// `pnpm --filter latch-upgrade run old-release`: builds the last release (or says where its
// build already is), as the test's global setup does, for a look at it by hand.
import { buildRelease } from "./release.mjs"

const release = buildRelease({ log: (line) => console.log(line) })
console.log(
  `${release.label} (${release.source}): ${release.root}${release.reused ? " (built before)" : ""}`,
)
