import type { Plan } from "../plan.js"

/** `src/lib/server/demo-user.ts`: the Credentials provider's one user. */
export function demoUserModule(plan: Plan): string {
  const database = plan.database !== "none"
  return `// The demo user of the Credentials provider: "demo", with the password AUTH_DEMO_PASSWORD
// (.env). Without that variable nobody signs in as the demo user. Replace it with your users.
import { env } from "$env/dynamic/private"
${database ? `import type { Adapter } from "@latch/sveltekit/adapters"\n` : ""}
const DEMO = { name: "Demo User", email: "demo@example.com" }

/** The demo user for the right username and password, else null (a refused sign-in). */
export async function authorizeDemoUser(
  credentials: Partial<Record<string, unknown>>,${database ? "\n  adapter: Adapter," : ""}
) {
  const expected = env.AUTH_DEMO_PASSWORD
  if (!expected || credentials.username !== "demo") return null
  if (!(await sameText(String(credentials.password ?? ""), expected))) return null
${
  database
    ? `  // Database sessions belong to a user of the database: the demo user is made on first use.
  const user = await adapter.getUserByEmail?.(DEMO.email)
  return user ?? adapter.createUser!({ id: crypto.randomUUID(), ...DEMO, emailVerified: null })`
    : `  return { id: "demo", ...DEMO }`
}
}

/** Compares two strings in constant time (their SHA-256 digests, so lengths do not show). */
async function sameText(a: string, b: string) {
  const digest = async (text: string) =>
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
  const [x, y] = await Promise.all([digest(a), digest(b)])
  let difference = 0
  for (let i = 0; i < x.length; i++) difference |= x[i]! ^ y[i]!
  return difference === 0
}
`
}
