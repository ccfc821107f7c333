/** Path helpers, written without regular expressions so that no input can make them slow. */

/** `"auth/"`, `"/auth/"` and `"/auth"` → `"/auth"`; `""` and `"/"` → `""`. */
export function normalizeBasePath(path: string): string {
  let start = 0
  let end = path.length
  while (start < end && path[start] === "/") start++
  while (end > start && path[end - 1] === "/") end--
  return start === end ? "" : `/${path.slice(start, end)}`
}

/** Appends query parameters to a URL or path that may already have some. */
export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value)
  const query = search.toString()
  if (!query) return url
  const hash = url.indexOf("#")
  const base = hash === -1 ? url : url.slice(0, hash)
  const fragment = hash === -1 ? "" : url.slice(hash)
  return `${base}${base.includes("?") ? "&" : "?"}${query}${fragment}`
}
