// The development mailbox: the mails the local SMTP sink received (newest first), so the
// email sign-in can be tried without a mail server. It exists only when LATCH_DEMO_MAILBOX_DIR
// is set (by `npm run demo` and the e2e tests); anywhere else it is a 404.
import { env } from "$env/dynamic/private"
import { error } from "@sveltejs/kit"
import { readMailbox } from "latch-mailbox/read"
import type { PageServerLoad } from "./$types"

export const load: PageServerLoad = async ({ setHeaders }) => {
  const dir = env.LATCH_DEMO_MAILBOX_DIR
  if (!dir) error(404, "Not found")
  setHeaders({ "cache-control": "no-store" })
  const mails = readMailbox(dir)
    .slice(0, 50)
    .map((mail) => ({
      id: mail.id,
      to: mail.envelope.to.join(", "),
      from: mail.from,
      subject: mail.subject,
      receivedAt: mail.receivedAt,
      text: mail.text ?? "",
      html: mail.html ?? "",
      links: [...new Set((mail.text ?? "").match(/https?:\/\/[^\s<>"]+/g) ?? [])],
    }))
  return { mails }
}
