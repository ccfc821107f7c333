// The e2e suite's ports (see run.mjs): nine consecutive ones from E2E_PORT_BASE, each free on
// 127.0.0.1 and on ::1 (the browser opens the demo at `localhost`, which can resolve to either).
import { createServer } from "node:net"

/** How many consecutive ports the suite uses (playwright.config.ts). */
export const PORTS = 9
export const DEFAULT_BASE = 4173

/** Whether nothing listens on `port` at `host` (a host the machine lacks counts as free). */
function isFree(port, host) {
  return new Promise((resolve) => {
    const server = createServer()
    server.once("error", (error) =>
      resolve(error.code === "EADDRNOTAVAIL" || error.code === "EAFNOSUPPORT"),
    )
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** The first port of `base`'s block that something listens on, or undefined. */
export async function takenPort(base) {
  for (let port = base; port < base + PORTS; port++) {
    if (!(await isFree(port, "127.0.0.1")) || !(await isFree(port, "::1"))) return port
  }
  return undefined
}

/**
 * The base port of the suite's run: `asked` (E2E_PORT_BASE) when its block is free, or throws
 * naming the port taken; without it, `preferred`'s block when free, or a free one elsewhere.
 */
export async function chooseBase(asked, preferred = DEFAULT_BASE) {
  if (asked) {
    const base = Number(asked)
    if (!Number.isInteger(base) || base < 1024 || base + PORTS > 65536) {
      throw new Error(`E2E_PORT_BASE=${asked} is not a port from 1024 to ${65536 - PORTS}`)
    }
    const taken = await takenPort(base)
    if (taken !== undefined) {
      throw new Error(
        `port ${taken} (of E2E_PORT_BASE=${base}…${base + PORTS - 1}) is taken by another ` +
          `program; the suite only runs against servers it starts. Stop that program, or unset ` +
          `E2E_PORT_BASE to let the suite find free ports.`,
      )
    }
    return base
  }
  if ((await takenPort(preferred)) === undefined) return preferred
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + PORTS * Math.floor(Math.random() * 4_000)
    if ((await takenPort(base)) === undefined) return base
  }
  throw new Error("found no block of free ports for the suite's servers")
}
