// The deployments the check builds and runs: each adapter's output in the runtime it deploys to.
import path from "node:path"
import { fileURLToPath } from "node:url"
import { runtimeBinary } from "../../scripts/runtime-binary.mjs"
import { run } from "./run.mjs"

export const root = fileURLToPath(new URL("..", import.meta.url))
const bin = (name) => path.join(root, "node_modules", ".bin", name)
const at = (...parts) => path.join(root, ...parts)

/** Bun's and Deno's binaries, not their Node.js wrappers (see scripts/runtime-binary.mjs). */
const bunBinary = () => runtimeBinary("bun", "bun", import.meta.url)
export const denoBinary = () => runtimeBinary("deno", "deno", import.meta.url)

/** adapter-node's variables: where to listen, and the site's origin for form actions. */
const nodeEnv = (port, env) => ({
  ...env,
  HOST: "127.0.0.1",
  PORT: String(port),
  ORIGIN: env.AUTH_URL,
})

/** The compatibility date in wrangler.jsonc; the check runs the Worker with the same. */
export const COMPATIBILITY_DATE = "2025-09-01"

/**
 * `vite build` with one adapter (svelte.config.js picks it by DEPLOY_TARGET). A build that a
 * signal ended is run once more: Node 20 can abort a process whose last promises are still
 * touching the file system as it exits (`Assertion failed: (req_wrap_async) != nullptr` in
 * fs.access, after the adapter said done), a crash of the tool, not of the app being built. A
 * build that exits with an error code is not run again.
 */
async function viteBuild(target) {
  const build = () =>
    run(bin("vite"), ["build"], { cwd: root, env: { DEPLOY_TARGET: target }, noNetwork: true })
  try {
    return await build()
  } catch (error) {
    if (!error.signal) throw error
    console.log(`vite build for ${target} was ended by ${error.signal}; building it again`)
    return build()
  }
}

/** Bundles the Worker as `wrangler deploy` would, without uploading (no account, no network). */
function wranglerBundle(outdir, flags) {
  const args = ["deploy", "--dry-run", "--outdir", outdir]
  for (const flag of flags) args.push("--compatibility-flags", flag)
  return run(bin("wrangler"), args, {
    cwd: root,
    env: { WRANGLER_SEND_METRICS: "false", WRANGLER_LOG: "warn" },
    noNetwork: true,
  })
}

/**
 * The builds: one per adapter; adapter-cloudflare's output is then bundled twice by wrangler,
 * without and with `nodejs_compat` (which changes how `node:` imports are bundled).
 */
export const builds = {
  node: () => viteBuild("node"),
  cloudflare: async () => {
    await viteBuild("cloudflare")
    await wranglerBundle(at(".check", "cloudflare"), [])
    await wranglerBundle(at(".check", "cloudflare-compat"), ["nodejs_compat"])
  },
  vercel: () => viteBuild("vercel"),
  netlify: () => viteBuild("netlify"),
}

/**
 * The servers: for each, the build it needs and the command that serves it on `port` with the
 * environment `env` (AUTH_SECRET, AUTH_URL, SEED_PASSWORD_HASH).
 */
export const servers = [
  {
    name: "node (adapter-node)",
    build: "node",
    command: (port, env) => ({
      file: process.execPath,
      args: [at("build-node", "index.js")],
      env: nodeEnv(port, env),
    }),
  },
  {
    name: "bun (adapter-node)",
    build: "node",
    command: (port, env) => ({
      file: bunBinary(),
      args: [at("build-node", "index.js")],
      env: nodeEnv(port, env),
    }),
  },
  {
    name: "deno (adapter-node)",
    build: "node",
    // The server reads its environment (process.env) and its packages (node_modules, which
    // pnpm keeps in the workspace root) and listens on one address: nothing more.
    command: (port, env) => ({
      file: denoBinary(),
      args: [
        "run",
        "--no-prompt",
        `--allow-net=127.0.0.1:${port}`,
        "--allow-env",
        `--allow-read=${root},${path.join(root, "..", "node_modules")}`,
        at("build-node", "index.js"),
      ],
      env: { ...nodeEnv(port, env), DENO_DIR: at(".check", "deno") },
      cleanEnv: true,
    }),
  },
  ...[
    ["workerd (adapter-cloudflare)", "cloudflare", ""],
    ["workerd + nodejs_compat", "cloudflare-compat", "nodejs_compat"],
  ].map(([name, bundle, flags]) => ({
    name,
    build: "cloudflare",
    command: (port, env) => ({
      file: process.execPath,
      args: [
        at("check", "serve-cloudflare.mjs"),
        at(".check", bundle, "_worker.js"),
        at(".svelte-kit", "cloudflare", "cloudflare"),
        String(port),
        COMPATIBILITY_DATE,
        flags,
      ],
      env,
    }),
  })),
  {
    name: "edge-runtime (adapter-vercel edge)",
    build: "vercel",
    command: (port, env) => ({
      file: process.execPath,
      args: [at("check", "serve-vercel.mjs"), at(".vercel", "output"), String(port)],
      env,
    }),
  },
  {
    name: "deno (adapter-netlify edge)",
    build: "netlify",
    command: (port, env) => ({
      file: denoBinary(),
      args: [
        "run",
        "--no-prompt",
        `--allow-net=127.0.0.1:${port}`,
        "--allow-env",
        `--allow-read=${at(".netlify", "edge-functions")},${at("build")}`,
        at("check", "serve-netlify.ts"),
        at(".netlify", "edge-functions"),
        at("build"),
        String(port),
      ],
      // Only what the function needs: Deno sees no other variable of this machine.
      env: { ...env, DENO_DIR: at(".check", "deno") },
      cleanEnv: true,
    }),
  },
]
