// The demo's local SMTP sink: every mail the demo sends (sign-in links) lands here, on
// 127.0.0.1 only, and is stored as JSON in MAILBOX_DIR for the /dev/mailbox page.
// Development only: it accepts any mail from anyone who can reach the port.
import { rmSync } from "node:fs"
import { startMailbox } from "latch-mailbox"

const host = process.env.MAIL_HOST ?? "127.0.0.1"
const port = Number(process.env.MAIL_PORT ?? 2525)
const dir = process.env.MAILBOX_DIR ?? ".data/mailbox"

// MAILBOX_RESET=1 (the e2e tests): start with an empty mailbox.
if (process.env.MAILBOX_RESET === "1") rmSync(dir, { recursive: true, force: true })
const mailbox = await startMailbox({ host, port, dir })
console.log(`  Local SMTP sink: smtp://${host}:${mailbox.port} → ${dir}`)
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => mailbox.close().then(() => process.exit(0)))
}
