/**
 * What the suites' output leaves out (vitest's `onConsoleLog`). The tests' OpenID Provider
 * (oidc-provider) warns at import that it wants Node.js 22 or later. The packages support
 * Node.js 20.19 (`engines`), so the suites run on Node.js 20 on purpose, with that provider only
 * as the other end of the protocol: its warning says nothing about Latch. Every other line is
 * kept.
 */
export function onConsoleLog(log: string): boolean {
  return !log.includes("oidc-provider WARNING: Unsupported runtime.")
}
