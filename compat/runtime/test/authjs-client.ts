/**
 * Requests to Auth.js's own `Auth()`, keeping its cookies in a jar as a browser does: how the
 * compatibility tests make the stored data an Auth.js app leaves behind.
 */
import { Auth as AuthjsAuth } from "@auth/core"

export type Jar = Map<string, string>

export async function authjs(config: object, jar: Jar, url: string, form?: Record<string, string>) {
  const headers = new Headers()
  if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "))
  if (form) headers.set("content-type", "application/x-www-form-urlencoded")
  const response = await AuthjsAuth(
    new Request(url, {
      method: form ? "POST" : "GET",
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    }),
    config as Parameters<typeof AuthjsAuth>[1],
  )
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const name = pair!.slice(0, pair!.indexOf("="))
    const value = pair!.slice(pair!.indexOf("=") + 1)
    if (value === "" || /max-age=0/i.test(line)) jar.delete(name)
    else jar.set(name, value)
  }
  return response
}
