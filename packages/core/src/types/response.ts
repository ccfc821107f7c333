/** The response of `Auth()` before it becomes a `Response`, for framework integrations. */
import type { Cookie } from "./cookies.js"

/** The body of a `ResponseInternal`. */
export type ResponseBody = string | Record<string, unknown> | unknown[] | null

/** What `Auth()` returns with `raw`: the response before it becomes a `Response`. */
export interface ResponseInternal<Body extends string | Record<string, any> | any[] | null = any> {
  status?: number
  headers?: Headers | HeadersInit
  body?: Body
  redirect?: string
  cookies?: Cookie[]
}
