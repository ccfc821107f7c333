// SvelteKit 3 on Node.js 22 (SvelteKit 3 needs Node.js ≥ 22.17, Vite 8 and vite-plugin-svelte 7;
// the workspace develops against SvelteKit 2 on Node.js 20):
//
// 1. @latch/sveltekit's own test suite (vitest, including test/client.test.ts, which builds and
//    serves a real app) in a copy of the package outside the workspace, installed with npm
//    against SvelteKit 3 and the packed @latch/core;
// 2. scripts/pack-check.mjs --kit 3: a SvelteKit 3 app installs the packed packages and signs in.
//
// Node.js 22 comes from the npm registry's `node` package, kept in node_modules/.cache/latch-node.
// The packages must be built (`pnpm run build`). Temporary files are removed, pass or fail.
import { cpSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  exec,
  nodeBinary,
  nodeEnv,
  npmInstall,
  packPackages,
  root,
  step,
  tempDir,
} from "./install-lib.mjs"

const NODE_MAJOR = "22"
const started = Date.now()
const node = await nodeBinary(NODE_MAJOR)
const nodeVersion = (await exec(node, ["--version"])).trim()
const work = tempDir("latch-kit3-")

step(`copying @latch/sveltekit's sources and tests to ${work}`)
const source = join(root, "packages/sveltekit")
const copy = join(work, "packages/sveltekit")
const skip = /(^|\/)(node_modules|dist|build|\.svelte-kit|\.turbo)(\/|$)/
// The export-surface test compares the workspace package's exports map with Auth.js's installed
// one; it does not depend on SvelteKit's version and runs in the workspace's own test run.
const workspaceOnly = /^\/test\/(exports\.test\.ts|helpers\/exports\.ts)$/
for (const entry of ["src", "test", "vitest.config.ts", "svelte.config.js", "tsconfig.json"]) {
  cpSync(join(source, entry), join(copy, entry), {
    recursive: true,
    filter: (path) =>
      !skip.test(path.slice(source.length)) && !workspaceOnly.test(path.slice(source.length)),
  })
}
// Test helpers the suite shares with @latch/core's, and the base tsconfig, at the same places.
cpSync(join(root, "packages/core/test/helpers"), join(work, "packages/core/test/helpers"), {
  recursive: true,
})
// Core's TOTP (it imports nothing), with which test/two-factor.test.ts computes the codes an
// authenticator app shows.
const totp = "packages/core/src/flows/two-factor/totp.ts"
cpSync(join(root, totp), join(work, totp))
cpSync(join(root, "tsconfig.base.json"), join(work, "tsconfig.base.json"))
// The ports the test app is served on (it imports nothing).
cpSync(join(root, "scripts/ports.mjs"), join(work, "scripts/ports.mjs"))

const tarballs = await packPackages(["@latch/core"], work)
const workspace = JSON.parse(readFileSync(join(source, "package.json"), "utf8"))
const core = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8"))
writeFileSync(
  join(copy, "package.json"),
  JSON.stringify(
    {
      name: "latch-sveltekit-on-kit3",
      private: true,
      type: "module",
      dependencies: { "@latch/core": `file:${tarballs["@latch/core"]}` },
      devDependencies: {
        // What SvelteKit 3's peer dependencies ask for, and adapter-node 6 (for the client tests).
        "@sveltejs/adapter-node": "^6.0.0",
        "@sveltejs/kit": "^3.0.0",
        "@sveltejs/vite-plugin-svelte": "^7.0.0",
        svelte: "^5.57.1",
        vite: "^8.0.12",
        vitest: workspace.devDependencies.vitest,
        // @latch/core's optional peer, for the passkey tests.
        "@simplewebauthn/server": core.devDependencies["@simplewebauthn/server"],
        // @latch/sveltekit's optional peer, for the browser side of passkeys.
        "@simplewebauthn/browser": workspace.devDependencies["@simplewebauthn/browser"],
        // The SMTP sink and core's optional peer, for the password accounts' mails.
        "latch-mailbox": `file:${join(root, "tools/mailbox")}`,
        nodemailer: core.devDependencies.nodemailer,
      },
    },
    null,
    2,
  ),
)
step(`installing SvelteKit 3 for the copy with npm (Node.js ${nodeVersion})`)
await npmInstall(copy, node)
const kit = JSON.parse(
  readFileSync(join(copy, "node_modules/@sveltejs/kit/package.json"), "utf8"),
).version
if (!kit.startsWith("3.")) throw new Error(`@sveltejs/kit ${kit} was installed, not 3.x`)

step(`@latch/sveltekit's tests on SvelteKit ${kit}, Node.js ${nodeVersion}`)
const output = await exec(node, [join(copy, "node_modules/vitest/vitest.mjs"), "run"], {
  cwd: copy,
  env: { ...nodeEnv(node), CI: "true" },
})
// eslint-disable-next-line no-control-regex
const plain = output.replace(/\u001b\[[0-9;]*m/g, "")
console.log(
  plain
    .split("\n")
    .filter((line) => /^\s*(Test Files|Tests)\s/.test(line))
    .join("\n"),
)

step("a SvelteKit 3 app installs the packed packages and signs in")
await exec(
  process.execPath,
  [join(root, "scripts/pack-check.mjs"), "--kit", "3", "--node", NODE_MAJOR],
  {
    echo: true,
  },
)
console.log(
  `✓ SvelteKit ${kit} on Node.js ${nodeVersion} (${Math.round((Date.now() - started) / 1000)} s)`,
)
