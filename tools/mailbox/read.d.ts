import type { ParsedMail, ReceivedMail } from "./index.js"

export function parseMail(raw: string): ParsedMail
export function decodeHeader(value?: string): string
export function readMailbox(dir: string): ReceivedMail[]
