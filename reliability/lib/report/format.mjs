// Small formatting helpers shared by the report's sections.

/** "2026-11-26 08:15 UTC" from an ISO date. */
export const when = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/** 123456 → "123,456". */
export const count = (n) => Number(n).toLocaleString("en-US")

/** Milliseconds, rounded sensibly. */
export const ms = (n) => (n >= 100 ? `${Math.round(n)} ms` : `${Number(n).toFixed(1)} ms`)
