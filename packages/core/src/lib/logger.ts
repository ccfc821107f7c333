/**
 * The logger: `error` for what an operator must see, `warn` with a stable code for risky
 * configuration, `debug` for tracing a flow (only with `debug: true`). Each method can be
 * replaced through `config.logger`.
 */
import { AuthError } from "../errors.js"

/** Codes of the warnings Latch prints. */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "experimental-webauthn"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "weak-secret"
  | "memory-counter"
  | "memory-rate-limit"
  | "credentials-rate-limited"
  | "origin-from-request"
  | "password-no-mail"
  | "weak-password-hash"
  | "env-unreadable"
  | "webauthn-autocomplete-order"

/** The logger's methods. */
export interface LoggerInstance {
  debug: (message: string, metadata?: unknown) => void
  error: (error: Error) => void
  warn: (code: WarningCode) => void
}

const warnings: Record<WarningCode, string> = {
  "debug-enabled":
    "debug is on: debug messages may contain tokens and profile data. Turn it off in production.",
  "csrf-disabled":
    "skipCSRFCheck is set: POST requests are not checked for CSRF tokens. Only framework integrations that check requests themselves should do this.",
  "experimental-webauthn":
    "WebAuthn (passkeys) is experimental: its API may change in a minor release.",
  "env-url-basepath-redundant":
    "AUTH_URL has a path and basePath is set too: basePath wins. Remove one of them.",
  "env-url-basepath-mismatch":
    "AUTH_URL's path differs from basePath: basePath is used. Make them agree.",
  "memory-counter":
    "The adapter has no incrementCounter: sign-in rate limits and used passkey challenges are counted in this process's memory, so each instance of the app counts apart. Use an adapter with incrementCounter and getCounter, or a counterStore, when you run several instances.",
  "memory-rate-limit":
    "The adapter has incrementCounter but no getCounter: the credentials sign-in rate limit is counted in this process's memory, so each instance of the app counts apart (the other counters stay in the adapter). Add getCounter to the adapter, or set a counterStore.",
  "credentials-rate-limited":
    "A credentials sign-in rate limit was reached: attempts are refused with code=rate_limited until its window ends. Many of these mean someone is guessing passwords.",
  "origin-from-request":
    "Neither AUTH_URL nor the adapter's ORIGIN is set: the links Latch emails and the redirects it sends follow the request's URL, which most servers build from the Host header the client sent. Pin the origin: set AUTH_URL=https://your.site (or ORIGIN with SvelteKit's adapter-node).",
  "password-no-mail":
    "The Password provider has no way to send mail: sign-up, password resets and the notices of a changed password fail with code=mail_failed. Add an email provider that can send any message (Nodemailer, Resend, SendGrid, Postmark, Mailgun, Forward Email) or pass Password({ sendMail }).",
  "weak-password-hash":
    "The Password provider's scrypt parameters are below the lowest OWASP recommends (8 MiB of memory, and N·r·p of at least 655,360, e.g. ln 13, r 8, p 10): a stolen hash is cheap to guess. Keep the default ({ ln: 15, r: 8, p: 3 }) or raise them.",
  "env-unreadable":
    "The runtime refused to let the environment be read (Deno without --allow-env, say): AUTH_SECRET, AUTH_URL and every other AUTH_* variable count as unset. Grant the read (deno run --allow-env, or --allow-env=AUTH_SECRET,AUTH_URL,… for the ones you use), or pass secret and the rest in the configuration, or call setEnvDefaults(env, config) with an object of your own.",
  "webauthn-autocomplete-order":
    'A WebAuthn provider with enableConditionalUI has "webauthn" in a form field\'s autocomplete, but not last after the field\'s name: browsers take the token only as "username webauthn", so the autofill offers no passkey. Write autocomplete: "username webauthn".',
  "weak-secret":
    "The secret is shorter than 32 characters. This is refused in production; generate one with `npx @latch/core secret` or `openssl rand -base64 33`.",
}

/** A message on one line: a line break from a request value must not start a log line of its own. */
function oneLine(message: string): string {
  return message.replace(/\r/g, "\\r").replace(/\n/g, "\\n")
}

function describe(error: Error): string {
  const type = error instanceof AuthError ? error.type : error.name
  let text = `[latch][error] ${type}: ${oneLine(error.message)}`
  let cause = causeOf(error)
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    text += `\n  caused by ${cause.stack ?? `${cause.name}: ${cause.message}`}`
    cause = causeOf(cause)
  }
  return text
}

/** The error under this one: `cause.err` for Latch's errors (Auth.js's shape), else `cause`. */
function causeOf(error: Error): unknown {
  return error instanceof AuthError ? error.cause?.err : error.cause
}

const printed = new Set<WarningCode>()

/**
 * Warnings about something that happened rather than about the configuration: printed each
 * time. A rate limit warns once per limit and window when it is reached, so these stay few.
 */
const events = new Set<WarningCode>(["credentials-rate-limited"])

/** The default logger, on `console`. */
export const defaultLogger: LoggerInstance = {
  debug(message, metadata) {
    console.debug(`[latch][debug] ${message}`, ...(metadata === undefined ? [] : [metadata]))
  },
  error(error) {
    console.error(describe(error))
  },
  warn(code) {
    // A configuration warning once per process: an app that builds its configuration per
    // request (a lazy `SvelteKitAuth(async (event) => …)`) must not repeat it on every request.
    if (printed.has(code) && !events.has(code)) return
    printed.add(code)
    console.warn(`[latch][warn] ${code}: ${warnings[code]}`)
  },
}

/**
 * The logger of one configuration: the user's methods where given, `console` elsewhere, and
 * `debug` silent unless `debug` is on. A logger that throws never breaks a request.
 */
export function createLogger(options: {
  debug: boolean
  overrides: Partial<LoggerInstance> | undefined
}): LoggerInstance {
  const base = { ...defaultLogger, ...options.overrides }
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      try {
        fn(...args)
      } catch {
        // A broken logger must not turn a sign-in into a crash.
      }
    }
  return {
    debug: options.debug ? guard(base.debug) : () => {},
    error: guard(base.error),
    warn: guard(base.warn),
  }
}
