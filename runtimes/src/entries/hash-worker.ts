/** bench/password-runtimes.mjs's program as a Worker: `?count=` derivations per request. */
import { hashBench } from "../hash-bench.js"

export default {
  async fetch(request: Request): Promise<Response> {
    try {
      return Response.json(await hashBench(Number(new URL(request.url).searchParams.get("count"))))
    } catch (error) {
      return Response.json({ error: String(error) })
    }
  },
}
