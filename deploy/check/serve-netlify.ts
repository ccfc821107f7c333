// Runs adapter-netlify's Edge Function (`edge: true`) in Deno, as Netlify's edge does: the
// paths its manifest excludes are files of the publish directory (Netlify's CDN), everything
// else goes to the function with a Netlify-like `context`.
//   deno run --allow-net=127.0.0.1:<port> --allow-env --allow-read=<functions dir>,<publish dir>
//     serve-netlify.ts <edge-functions dir> <publish dir> <port>
// --allow-env: the function reads the whole environment (`Deno.env.toObject()`) when it loads;
// Netlify's edge gives it. --allow-read: the function's directory (a dynamic import needs it)
// and the static files. --allow-net: listening on this one address; the function fetches
// nothing.
const [functions, publish, port] = Deno.args
const manifest = JSON.parse(await Deno.readTextFile(`${functions}/manifest.json`)) as {
  functions: { function: string; path: string; excludedPath?: string[] }[]
}
const route = manifest.functions[0]!
const render = (await import(new URL(`${route.function}.js`, `file://${functions}/`).href))
  .default as (request: Request, context: unknown) => Promise<Response>

/** Whether a path matches one of the manifest's globs (`/*` covers every path beneath). */
function matches(glob: string, pathname: string): boolean {
  if (glob.endsWith("/*")) return pathname.startsWith(glob.slice(0, -1))
  return pathname === glob
}

const TYPES: Record<string, string> = {
  js: "text/javascript",
  css: "text/css",
  json: "application/json",
  txt: "text/plain",
}

async function staticFile(pathname: string): Promise<Response> {
  const relative = decodeURIComponent(pathname)
  if (relative.split("/").includes("..")) return new Response("Bad path", { status: 400 })
  try {
    const body = await Deno.readFile(`${publish}${relative}`)
    const type = TYPES[relative.split(".").pop() ?? ""] ?? "application/octet-stream"
    return new Response(body, { headers: { "content-type": type } })
  } catch {
    return new Response("Not Found", { status: 404 })
  }
}

Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(port),
    onListen: () => {
      console.log(`deno listening on http://127.0.0.1:${port}/`)
    },
  },
  (request, info) => {
    const { pathname } = new URL(request.url)
    if (route.excludedPath?.some((glob) => matches(glob, pathname))) return staticFile(pathname)
    const context = {
      ip: info.remoteAddr.hostname,
      requestId: crypto.randomUUID(),
      geo: {},
      site: { name: "latch-deploy" },
      next: () => staticFile(pathname),
      waitUntil: (promise: Promise<unknown>) => void promise.catch(console.error),
    }
    return render(request, context)
  },
)
