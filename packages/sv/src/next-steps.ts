import type { Plan } from "./plan.js"
import { PROTECTED_PATH, SIGN_IN_PATH } from "./templates/routes.js"

/** What the user does next, in the order they do it. */
export function nextSteps(plan: Plan, run: (script: string) => string): string[] {
  const has = (provider: string) => plan.providers.includes(provider as never)
  const steps: string[] = []
  if (plan.database === "postgres") {
    steps.push("Set DATABASE_URL in .env to your PostgreSQL server (13 or later)")
  }
  if (plan.database === "drizzle") {
    steps.push(
      `Run ${run("db:push")} (or db:generate, then db:migrate) to create Latch's tables in your database`,
    )
  }
  if (plan.database === "pglite" || plan.database === "postgres") {
    steps.push(
      "Latch's tables are created at the first request (migrate() in src/lib/server/auth-database.ts)",
    )
  }
  if (has("github")) {
    steps.push(
      "Create a GitHub OAuth app (https://github.com/settings/developers) with the callback URL " +
        "http://localhost:5173/auth/callback/github; put its client ID and secret in .env " +
        "(AUTH_GITHUB_ID, AUTH_GITHUB_SECRET)",
    )
  }
  if (plan.mailer) {
    steps.push(
      "Set AUTH_EMAIL_SERVER (an SMTP URL) and AUTH_EMAIL_FROM in .env: the mails go there",
    )
  }
  steps.push(`Run ${run("dev")} and open ${PROTECTED_PATH}: it sends you to ${SIGN_IN_PATH}`)
  if (has("credentials")) {
    steps.push('Sign in as "demo" with AUTH_DEMO_PASSWORD from .env')
  }
  if (has("password")) steps.push("Create an account at /auth/signup")
  return steps
}
