import { defineAddonOptions } from "sv"

/** The ways to sign in the add-on can set up, as `providers:<id>,<id>` on the command line. */
export const PROVIDERS = ["credentials", "password", "github", "email"] as const
export type ProviderChoice = (typeof PROVIDERS)[number]

/** Where users and sessions live, as `database:<id>` on the command line. */
export const DATABASES = ["none", "pglite", "postgres", "drizzle"] as const
export type DatabaseChoice = (typeof DATABASES)[number]

export const options = defineAddonOptions()
  .add("providers", {
    question: "How will your users sign in?",
    type: "multiselect",
    default: ["credentials"] as ProviderChoice[],
    required: true,
    options: [
      {
        value: "credentials",
        label: "A demo user",
        hint: "username and password checked by your own code (Credentials)",
      },
      {
        value: "password",
        label: "Password accounts",
        hint: "sign-up, confirmation mail, reset; needs a database and an SMTP server",
      },
      { value: "github", label: "GitHub", hint: "OAuth; needs a GitHub OAuth app" },
      {
        value: "email",
        label: "Email link",
        hint: "a sign-in link mailed by Nodemailer; needs a database and an SMTP server",
      },
    ] as { value: ProviderChoice; label: string; hint: string }[],
  })
  .add("database", {
    question: "Where do users and sessions live?",
    type: "select",
    default: "none" as DatabaseChoice,
    options: [
      { value: "none", label: "Nowhere", hint: "sessions in an encrypted cookie (JWT)" },
      { value: "pglite", label: "PGlite", hint: "embedded PostgreSQL in a local folder" },
      { value: "postgres", label: "PostgreSQL server", hint: "pg, DATABASE_URL" },
      {
        value: "drizzle",
        label: "Drizzle",
        hint: "the app's own Drizzle database (sv add drizzle)",
      },
    ] as { value: DatabaseChoice; label: string; hint: string }[],
  })
  .build()
