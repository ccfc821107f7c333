/** The program as a Worker: a request runs it, the answer is the results as JSON. */
import { runFlows } from "../program.js"

interface Env {
  SERVER: string
  CLIENT: string
}

export default {
  async fetch(_request: Request, env: Env): Promise<Response> {
    const results = await runFlows({ server: env.SERVER, client: env.CLIENT, offline: false })
    return Response.json(results)
  },
}
