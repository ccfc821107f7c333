import { json } from "@sveltejs/kit"
import { decode, encode, getToken, type JWT } from "@auth/core/jwt"
import { env } from "$env/dynamic/private"
import type { RequestHandler } from "./$types"

interface Claims extends JWT {
  purpose: string
}

/** The session token's claims (no timestamps), and a token of the app's own, round-tripped. */
export const GET: RequestHandler = async ({ request, url }) => {
  const secret = env.AUTH_SECRET ?? ""
  const secureCookie = url.protocol === "https:"
  const token = await getToken({ req: request, secret, secureCookie })
  const raw = await getToken({ req: request, secret, secureCookie, raw: true })
  const salt = "compat-app-api"
  const minted = await encode<Claims>({
    token: { sub: token?.sub ?? "nobody", purpose: "api" },
    secret,
    salt,
    maxAge: 60,
  })
  const claims = await decode<Claims>({ token: minted, secret, salt })
  return json({
    token: token && { sub: token.sub, name: token.name, email: token.email, role: token.role },
    raw: typeof raw === "string" && raw.length > 0,
    claims: claims && { sub: claims.sub, purpose: claims.purpose },
  })
}
