// The demo's local SMTP sink: every mail the demo sends (sign-in links) lands here, on
// 127.0.0.1 only, and is stored as JSON in MAILBOX_DIR for the /dev/mailbox page.
// Development only: it accepts any mail from anyone who can reach the port.
import { rmSync } from "node:fs"
import { startMailApi, startMailbox } from "latch-mailbox"

const host = process.env.MAIL_HOST ?? "127.0.0.1"
const port = Number(process.env.MAIL_PORT ?? 2525)
const dir = process.env.MAILBOX_DIR ?? ".data/mailbox"

// MAILBOX_RESET=1 (the e2e tests): start with an empty mailbox.
if (process.env.MAILBOX_RESET === "1") rmSync(dir, { recursive: true, force: true })
// MAIL_API_PORT: also answer Resend's send-email API there, for the demo's Resend provider
// (AUTH_RESEND_KEY must be MAIL_API_KEY); its mails land in the same mailbox.
const api = process.env.MAIL_API_PORT
  ? await startMailApi({
      host,
      port: Number(process.env.MAIL_API_PORT),
      dir,
      apiKey: process.env.MAIL_API_KEY ?? "re_latch_demo_key",
    })
  : undefined
if (api) console.log(`  Local Resend-speaking API: ${api.url}/emails → ${dir}`)
// Started last: the SMTP port answering means both are up.
const mailbox = await startMailbox({ host, port, dir })
console.log(`  Local SMTP sink: smtp://${host}:${mailbox.port} → ${dir}`)

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => Promise.all([mailbox.close(), api?.close()]).then(() => process.exit(0)))
}
