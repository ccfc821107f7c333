/**
 * A Worker using the adapter on its D1 binding, as an app deployed to Cloudflare does: bundled by
 * esbuild with Wrangler's conditions and run in workerd (d1-worker.test.ts). It answers what the
 * adapter did, for the test to check.
 */
import type { Adapter } from "@latch/core/adapters"
import { drizzle } from "drizzle-orm/d1"
import { DrizzleAdapter } from "../../src/index.js"

export default {
  async fetch(_request: Request, env: { DB: any }): Promise<Response> {
    const a = DrizzleAdapter(drizzle(env.DB)) as Required<Adapter>
    const id = crypto.randomUUID()
    const later = () => new Date(Date.now() + 3_600_000)
    await a.createUser({ id, email: `${id}@example.com`, emailVerified: null })
    // No session id given: the adapter makes one.
    await a.createSession({ sessionToken: `t-${id}`, userId: id, expires: later() })
    const read = await a.getSessionAndUser(`t-${id}`)
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => a.incrementCounter(`counter-${id}`, later())),
    )
    await a.createVerificationToken({ identifier: id, token: "token", expires: later() })
    const tokenUses = await Promise.all(
      Array.from({ length: 5 }, () => a.useVerificationToken({ identifier: id, token: "token" })),
    )
    await a.setTwoFactor({ userId: id, secret: "sealed", enabledAt: new Date() })
    await a.setRecoveryCodes(id, ["a".repeat(64), "b".repeat(64)])
    const codeUses = await Promise.all([1, 2, 3].map(() => a.useRecoveryCode(id, "a".repeat(64))))
    const deleted = await a.deleteUser(id)
    return Response.json({
      sessionUser: read?.user.id === id,
      sessionId: typeof read?.session.id,
      counts: counts.sort((x, y) => x - y),
      tokenUses: tokenUses.filter(Boolean).length,
      codeUses: codeUses.filter(Boolean).length,
      deleted: deleted?.id === id,
      afterDelete: await a.getSessionAndUser(`t-${id}`),
      codesAfterDelete: await a.useRecoveryCode(id, "b".repeat(64)),
      watchSessions: typeof a.watchSessions,
    })
  },
}
