// Heading ids as GitHub makes them (lower case, punctuation dropped, spaces to hyphens, a repeated
// heading numbered `-1`, `-2`…), so that the READMEs' anchors work on GitHub and here alike.

/** @param {string} text */
export function slugify(text) {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-")
}

export class Slugger {
  /** How many times each base id was taken: the next repeat gets `-<count>`. */
  #taken = new Map()

  /** @param {string} text */
  slug(text) {
    const base = slugify(text)
    let id = base
    while (this.#taken.has(id)) {
      const count = this.#taken.get(base) + 1
      this.#taken.set(base, count)
      id = `${base}-${count}`
    }
    this.#taken.set(id, 0)
    return id
  }
}

/**
 * A heading's text as a reader sees it: inline code, links and emphasis reduced to their text.
 * @param {{ tokens?: any[], text: string }} token
 * @returns {string}
 */
export function headingText(token) {
  if (!token.tokens) return token.text
  return token.tokens.map((t) => (t.tokens ? headingText(t) : unescape(t.text ?? ""))).join("")
}

/** @param {string} text */
const unescape = (text) =>
  text
    .replaceAll("&amp;", "&")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
