// Shared by the install checks (pack-check.mjs, kit3-check.mjs) and @latch/sv's app test:
// temporary directories and child processes that are cleaned up however the script ends, the
// packed tarballs of the workspace's packages, a Node.js binary of another major version from the
// npm registry's `node` package, and a browser as far as sign-in goes (cookies, forms).
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { root } from "./lib.mjs"
import { freePort } from "./ports.mjs"

export { freePort, root }

const tempDirs = new Set()
const children = new Set()

/** Kills what is still running and removes the temporary directories (synchronously). */
function cleanUp() {
  for (const child of children) {
    try {
      // Each child leads its own process group: end it with everything it started.
      process.kill(-child.pid, "SIGKILL")
    } catch {}
  }
  children.clear()
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
  tempDirs.clear()
}
process.on("exit", cleanUp)
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => process.exit(128 + (signal === "SIGINT" ? 2 : 15)))
}

/**
 * A fresh directory under the system's temporary directory, removed when the script ends (with
 * `keep`, left there and named at the end).
 */
export function tempDir(prefix, { keep = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  if (keep) process.on("exit", () => console.log(`• kept ${dir}`))
  else tempDirs.add(dir)
  return dir
}

/** Removes a directory made by `tempDir` now. */
export function removeTempDir(dir) {
  rmSync(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

export function step(message) {
  console.log(`• ${message}`)
}

/**
 * Starts a command in its own process group (so that cleaning up ends its children too), with
 * its output collected. `PATH` is kept; `env` adds to the environment.
 */
export function start(command, args, { cwd = root, env = {}, echo = false } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  children.add(child)
  child.output = ""
  const collect = (stream, sink) =>
    child[stream].on("data", (chunk) => {
      child.output += chunk
      if (echo) sink.write(chunk)
    })
  collect("stdout", process.stdout)
  collect("stderr", process.stderr)
  child.exited = new Promise((resolve) => {
    child.once("error", (error) => {
      child.output += `\n${error.stack}`
      resolve(-1)
    })
    child.once("close", (code, signal) => {
      children.delete(child)
      resolve(code ?? signal)
    })
  })
  return child
}

/** Stops a process started with `start` and waits for it. */
export async function stop(child) {
  if (child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, "SIGTERM")
    } catch {}
  }
  await child.exited
}

/**
 * Runs a command to completion; resolves with its output, or rejects with the end of it. With
 * `echo`, the output is also shown as it comes (for steps that take a while).
 */
export async function exec(command, args, options = {}) {
  const child = start(command, args, options)
  const code = await child.exited
  if (code !== 0) {
    const tail = child.output.split("\n").slice(-80).join("\n")
    throw new Error(`${command} ${args.join(" ")} failed (exit ${code}):\n${tail}`)
  }
  return child.output
}

/**
 * Packs workspace packages with `pnpm pack` (as `pnpm publish` would: `workspace:` ranges
 * replaced) into `destination`; returns their tarballs' paths by package name. The packages must
 * be built.
 */
export async function packPackages(names, destination) {
  const tarballs = {}
  for (const name of names) {
    const dir = join(root, "packages", name.replace(/^@latch\//, ""))
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
    if (manifest.name !== name) throw new Error(`${dir} holds ${manifest.name}, not ${name}`)
    if (!existsSync(join(dir, "dist"))) {
      throw new Error(`${name} is not built: run \`pnpm run build\` first`)
    }
    const before = new Set(readdirSync(destination))
    await exec("pnpm", ["pack", "--pack-destination", destination], { cwd: dir })
    const made = readdirSync(destination).filter((file) => !before.has(file))
    if (made.length !== 1 || !made[0].endsWith(".tgz")) {
      throw new Error(`pnpm pack of ${name} made ${made.join(", ") || "nothing"}`)
    }
    tarballs[name] = join(destination, made[0])
  }
  return tarballs
}

/**
 * The `node` binary of the newest release of `major`, from the npm registry: its `node` package
 * (whose install script fetches `node-<platform>-<arch>`), or that platform package itself when
 * install scripts do not run. Installed once into node_modules/.cache/latch-node/<major>
 * (git-ignored, reused by later runs). The current one when it already is of that major.
 */
export async function nodeBinary(major) {
  if (process.versions.node.split(".")[0] === String(major)) return process.execPath
  const dir = join(root, "node_modules/.cache/latch-node", String(major))
  const platform = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`
  const candidates = [
    join(dir, "node_modules/node/bin/node"),
    join(dir, `node_modules/${platform}/bin/node`),
  ]
  const works = (binary) =>
    existsSync(binary) &&
    spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout?.startsWith(`v${major}.`)
  const found = () => candidates.find(works)
  if (found()) return found()
  step(`installing Node.js ${major} from the npm registry's \`node\` package into ${dir}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const install = (spec) =>
    exec("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, spec], {
      cwd: dir,
    })
  await install(`node@${major}`)
  if (!found()) await install(`${platform}@${major}`)
  const binary = found()
  if (!binary) throw new Error(`no working Node.js ${major} binary in ${dir} after npm install`)
  return binary
}

/** Environment for commands that must run on `node`: its directory first on `PATH`. */
export function nodeEnv(node) {
  return { PATH: `${dirname(node)}:${process.env.PATH}` }
}

/** Installs a directory's dependencies with npm, from the registry (not the workspace). */
export async function npmInstall(dir, node) {
  await exec("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env: nodeEnv(node),
  })
}

/** A browser, as far as sign-in goes: a cookie jar, `Origin` on POSTs, no automatic redirects. */
export function browser(origin) {
  const jar = new Map()
  async function request(path, { method = "GET", form } = {}) {
    const headers = { accept: "text/html" }
    if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
    if (method === "POST") {
      headers.origin = origin
      headers["content-type"] = "application/x-www-form-urlencoded"
    }
    const response = await fetch(new URL(path, origin), {
      method,
      headers,
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      const value = pair.slice(pair.indexOf("=") + 1)
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ""
      if (expired) jar.delete(name)
      else jar.set(name, value)
    }
    return { status: response.status, location: response.headers.get("location"), response }
  }
  return { jar, request }
}

/**
 * The first form of a page that `test`s true: its action (resolved against the page's path, as
 * SvelteKit renders paths relative to the page) and its hidden fields.
 */
export function findForm(html, pagePath, test, description) {
  for (const [, attributes, body] of html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (!test(attributes, body)) continue
    const action = /action="([^"]*)"/.exec(attributes)?.[1] ?? ""
    const hidden = {}
    for (const [input] of body.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
      const field = /name="([^"]*)"/.exec(input)?.[1]
      if (field) hidden[field] = /value="([^"]*)"/.exec(input)?.[1] ?? ""
    }
    const url = new URL(action.replaceAll("&amp;", "&"), new URL(pagePath, "http://a"))
    return { action: url.pathname + url.search, hidden }
  }
  throw new Error(`no form ${description} in:\n${html}`)
}

/** The first form with a field named `name` (SvelteKit 3 names a remote form's `name/<form id>`). */
export function formWith(html, name, pagePath) {
  const field = new RegExp(`name="${name}(/[^"]*)?"`)
  return findForm(html, pagePath, (_, body) => field.test(body), `with a "${name}" field`)
}
