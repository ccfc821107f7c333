import { randomBytes } from "node:crypto"
import type { Plan } from "../plan.js"

/** A fresh secret: 33 random bytes, base64url (44 characters), as `npx @latch/core secret`. */
export function newSecret() {
  return randomBytes(33).toString("base64url")
}

interface Variable {
  name: string
  /** The value in `.env`; `.env.example` gets the name alone when `secret`. */
  value: string
  secret?: boolean
  comment: string
}

/** The variables the app reads, in the order they are written. */
export function variables(plan: Plan): Variable[] {
  const has = (provider: string) => plan.providers.includes(provider as never)
  const list: Variable[] = [
    {
      name: "AUTH_SECRET",
      value: newSecret(),
      secret: true,
      comment: "Seals sessions and tokens; `npx @latch/core secret` makes another",
    },
  ]
  if (has("credentials")) {
    list.push({
      name: "AUTH_DEMO_PASSWORD",
      value: randomBytes(12).toString("base64url"),
      secret: true,
      comment: 'The password of the demo user "demo"',
    })
  }
  if (has("github")) {
    list.push(
      { name: "AUTH_GITHUB_ID", value: "", comment: "Your GitHub OAuth app's client ID" },
      {
        name: "AUTH_GITHUB_SECRET",
        value: "",
        secret: true,
        comment: "Your GitHub OAuth app's client secret",
      },
    )
  }
  if (plan.mailer) {
    list.push(
      {
        name: "AUTH_EMAIL_SERVER",
        value: "smtp://localhost:587",
        comment: "The SMTP server of the mails (smtps://user:password@host:465)",
      },
      { name: "AUTH_EMAIL_FROM", value: "App <no-reply@localhost>", comment: "Their sender" },
    )
  }
  if (plan.database === "postgres") {
    list.push({
      name: "DATABASE_URL",
      value: "postgresql://postgres@localhost:5432/app",
      comment: "The PostgreSQL server of users and sessions",
    })
  }
  return list
}

/** Adds the variables a `.env` file lacks; a variable already set keeps its value. */
export function addVariables(content: string, list: Variable[], example: boolean): string {
  const present = new Set(
    content
      .split("\n")
      .map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1])
      .filter(Boolean),
  )
  const missing = list.filter((variable) => !present.has(variable.name))
  if (missing.length === 0) return content
  const lines = missing.flatMap((variable) => [
    `# ${variable.comment}`,
    `${variable.name}=${example && variable.secret ? "" : quote(variable.value)}`,
  ])
  const before = content === "" || content.endsWith("\n") ? content : `${content}\n`
  return `${before}${before ? "\n" : ""}# Latch\n${lines.join("\n")}\n`
}

/** Values with spaces or `#` in double quotes, as dotenv reads them. */
function quote(value: string) {
  return /[\s#"']/.test(value) ? JSON.stringify(value) : value
}
