// The deployments the check builds and runs: each adapter's output in the runtime it deploys to.
import path from "node:path"
import { fileURLToPath } from "node:url"
import { run } from "./run.mjs"

export const root = fileURLToPath(new URL("..", import.meta.url))
const bin = (name) => path.join(root, "node_modules", ".bin", name)
const at = (...parts) => path.join(root, ...parts)

/** The compatibility date in wrangler.jsonc; the check runs the Worker with the same. */
export const COMPATIBILITY_DATE = "2025-09-01"

/** `vite build` with one adapter (svelte.config.js picks it by DEPLOY_TARGET). */
function viteBuild(target) {
  return run(bin("vite"), ["build"], { cwd: root, env: { DEPLOY_TARGET: target }, noNetwork: true })
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
      // adapter-node's own variables: where to listen, and the site's origin for form actions.
      env: { ...env, HOST: "127.0.0.1", PORT: String(port), ORIGIN: env.AUTH_URL },
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
      file: bin("deno"),
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
