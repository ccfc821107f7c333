/** A decoded mail. */
export interface ParsedMail {
  from: string
  to: string
  subject: string
  date: string | undefined
  /** The first text/plain part. */
  text: string | undefined
  /** The first text/html part. */
  html: string | undefined
  /** Lowercase header names → unfolded, undecoded values. */
  headers: Record<string, string>
}

/** A mail as the sink received it. */
export interface ReceivedMail extends ParsedMail {
  id: string
  receivedAt: string
  envelope: { from: string; to: string[] }
  raw: string
}

export interface Mailbox {
  port: number
  messages: ReceivedMail[]
  nextFor(to: string, timeout?: number): Promise<ReceivedMail>
  to(address: string): ReceivedMail[]
  close(): Promise<void>
}

export function parseMail(raw: string): ParsedMail
export function decodeHeader(value?: string): string
export function readMailbox(dir: string): ReceivedMail[]
export function startMailbox(options?: {
  port?: number
  host?: string
  dir?: string
}): Promise<Mailbox>

/** The mailbox's HTTP side, speaking Resend's send-email API. */
export interface MailApi {
  port: number
  url: string
  messages: ReceivedMail[]
  close(): Promise<void>
}
export function startMailApi(options: {
  port?: number
  host?: string
  dir?: string
  apiKey: string
}): Promise<MailApi>
