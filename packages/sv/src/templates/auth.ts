import type { Plan } from "../plan.js"

/** `src/auth.ts`: the providers and, with a database, the adapter and database sessions. */
export function authModule(plan: Plan): string {
  const has = (provider: string) => plan.providers.includes(provider as never)
  const database = plan.database !== "none"
  const imports = [
    `import { SvelteKitAuth${database ? ", type SvelteKitAuthConfig" : ""} } from "@latch/sveltekit"`,
  ]
  const providers: string[] = []
  if (has("credentials")) {
    imports.push(`import Credentials from "@latch/sveltekit/providers/credentials"`)
    providers.push(`    // The demo user: "demo" with AUTH_DEMO_PASSWORD from .env. Replace authorize with a
    // check against your own users (hash their passwords with scrypt, argon2 or bcrypt).
    Credentials({
      name: "Demo user",
      credentials: {
        username: { label: "Username", autocomplete: "username" },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      authorize: (credentials) => authorizeDemoUser(credentials${database ? ", adapter" : ""}),
    }),`)
    imports.push(`import { authorizeDemoUser } from "${plan.lib}/server/demo-user"`)
  }
  if (has("password")) {
    imports.push(`import Password from "@latch/sveltekit/providers/password"`)
    providers.push(`    // Accounts with an address and a password: /auth/signup mails a link that creates the
    // account; /auth/reset-password mails a reset link. The mails go through Nodemailer below.
    Password(),`)
  }
  if (plan.mailer) {
    imports.push(`import Nodemailer from "@latch/sveltekit/providers/nodemailer"`)
    const why = has("email")
      ? "Sign-in links by email"
      : "The mails of password accounts (Nodemailer also offers sign-in links by email)"
    providers.push(`    // ${why}:
    // the SMTP server is AUTH_EMAIL_SERVER, the sender AUTH_EMAIL_FROM.
    Nodemailer(),`)
  }
  if (has("github")) {
    imports.push(`import GitHub from "@latch/sveltekit/providers/github"`)
    providers.push(`    // AUTH_GITHUB_ID and AUTH_GITHUB_SECRET; the OAuth app's callback URL is
    // <origin>/auth/callback/github.
    GitHub,`)
  }
  imports.sort((a, b) => moduleOf(a).localeCompare(moduleOf(b)))

  if (!database) {
    return `// Who may sign in. Sessions live in an encrypted cookie (JWT), sealed with AUTH_SECRET.
// Every option: https://www.npmjs.com/package/@latch/core
${imports.join("\n")}

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
${providers.join("\n")}
  ],
})
`
  }
  imports.push(`import { openDatabase } from "${plan.lib}/server/auth-database"`)
  return `// Who may sign in, and where users and sessions live (src/lib/server/auth-database.ts).
// Sessions are rows of the database; the cookie holds a random token.
// Every option: https://www.npmjs.com/package/@latch/core
${imports.join("\n")}

async function createConfig(): Promise<SvelteKitAuthConfig> {
  const adapter = await openDatabase()
  return {
    adapter,
    session: { strategy: "database" },
    providers: [
${providers.map(indent).join("\n")}
    ],
  }
}

// Made on the first request, not when the module loads: \`vite build\` imports this module, and
// the database is no business of the build. One configuration object for every request after
// that (Latch prepares each object once); after a failure (the database unreachable), the next
// request tries again.
let config: Promise<SvelteKitAuthConfig> | undefined

export const { handle, signIn, signOut } = SvelteKitAuth(() => {
  config ??= createConfig().catch((error) => {
    config = undefined
    throw error
  })
  return config
})
`
}

function moduleOf(line: string) {
  return /from "([^"]+)"/.exec(line)?.[1] ?? ""
}

function indent(block: string) {
  return block
    .split("\n")
    .map((line) => (line ? `  ${line}` : line))
    .join("\n")
}
