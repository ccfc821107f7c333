// The requests the fuzzer sends, as fast-check arbitraries. Most are valid-looking requests with
// one hostile part (a real CSRF token and cookie with a broken body, a real session cookie with a
// tampered chunk), so that the code behind the first checks runs too.
//
// A generated request is plain JSON, so a failing one can be saved and replayed as it was:
// `{ category, method, path, headers: [[name, value]], body, chunked, signIn, large }`. Values
// the generator cannot know (the port, a CSRF token, a session) are placeholders filled in when
// it is sent (context.mjs): {{origin}}, {{host}}, {{csrf}}, {{csrfCookie}}, {{session}},
// {{sessionValue}}, {{foreignJwe}}, {{remote}}, optionally transformed: {{sessionValue|flip:7}}.
import fc from "fast-check"
import { ALICE, BOB } from "../demo.mjs"

// --- Text ------------------------------------------------------------------------------------

/** Characters that have broken parsers and renderers: bidi controls, NUL, lone surrogates… */
const NASTY_CHARS = [
  "\u0000",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u00ad",
  "\u200b",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202e",
  "\u2066",
  "\u2069",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\ufffd",
  "\uffff",
  "\ud800",
  "\udfff",
  "\u0301",
  "\u0336",
  "\u20dd",
  "😀",
  "👩‍👩‍👧",
  "🏳️‍🌈",
  "\u0130",
  "\u0131",
  "ß",
  "ﬀ",
  "Å",
  "Å",
  "ｅｖｉｌ",
  "א",
  "م",
  "中",
  "\t",
  "\n",
  "\r",
  " ",
  "%",
  "%00",
  "%zz",
  "%c3",
  "&",
  "=",
  ";",
  ",",
  '"',
  "'",
  "<",
  ">",
  "\\",
  "/",
  "?",
  "#",
  "+",
  "{{",
  "}}",
  "${",
  "__proto__",
  "constructor",
]

const nastyChar = fc.constantFrom(...NASTY_CHARS)

/** Unicode text of every kind, often mixed with the characters above. */
export const hostileText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: nastyChar, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-composite", maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("carol", "alicia", "a", ""),
        fc.string({ unit: nastyChar, maxLength: 3 }),
      )
      .map(([name, extra]) => name + extra),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "x".repeat(5000), "é".repeat(3000)) },
)

/** Where a callback URL or `redirectTo` may point: mostly places it must never go. */
export const hostileUrl = fc.oneof(
  fc.constantFrom(
    "/",
    "/protected",
    "{{origin}}/profile",
    "https://evil.example",
    "https://evil.example/{{origin}}",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "http:evil.example",
    "https:/evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "{{origin}}.evil.example",
    "{{origin}}@evil.example",
    "http://localhost:1/",
    "http://127.0.0.1/",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "/ok/../..//evil.example",
    "/..//evil.example",
    "//evil%2Eexample",
    "https://evil.example%23@localhost/",
    "http://[::1]/",
    "/signin?callbackUrl=//evil.example",
    "//ｅｖｉｌ.example",
    "/\u202eelpmaxe.live//",
    "",
  ),
  hostileText,
  hostileText.map((text) => `/${text}`),
)

/** A provider id as typed into a URL or a field. */
const providerId = fc.oneof(
  fc.constantFrom("credentials", "nodemailer", "passkey", "email", "webauthn", "github", ""),
  fc.constantFrom("__proto__", "constructor", "toString", "credentials/../nodemailer"),
  hostileText,
)

// --- Encoding --------------------------------------------------------------------------------

/** Percent-encodes any string as UTF-8 (lone surrogates become U+FFFD, as a browser sends). */
export function percent(text) {
  let out = ""
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-_.~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  }
  return out
}

/** A string as the bytes Node may write into a header or path: UTF-8 bytes, one char each. */
export const rawBytes = (text) => Buffer.from(text, "utf8").toString("latin1")

/** Header values Node will write: no CR, LF or NUL, no character above U+00FF. */
const headerSafe = (text) => rawBytes(text).replace(/[\r\n\0]/g, "")

const urlencoded = (fields) =>
  fields.map(([name, value]) => `${percent(name)}=${percent(value)}`).join("&")

function multipart(fields, boundary = "latchfuzz") {
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name.replace(/"/g, "%22")}"\r\n\r\n${value}\r\n`,
  )
  return `${parts.join("")}--${boundary}--\r\n`
}

// --- Bodies ----------------------------------------------------------------------------------

/** Form fields, as a list (names may repeat), from the intended ones plus hostile extras. */
const fieldsFrom = (base) =>
  fc
    .tuple(
      fc.shuffledSubarray(base, { minLength: 0 }),
      fc.array(
        fc.tuple(
          base.length
            ? fc.oneof(fc.constantFrom(...base.map(([name]) => name)), hostileText)
            : hostileText,
          hostileText,
        ),
        {
          maxLength: 3,
        },
      ),
      fc.boolean(),
    )
    .map(([kept, extra, keepAll]) => (keepAll ? [...base, ...extra] : [...kept, ...extra]))

const deepJson = fc
  .integer({ min: 50, max: 20_000 })
  .map((depth) => "[".repeat(depth) + "]".repeat(depth))

/**
 * A body for the given fields in every content type: the right encoding most of the time, else
 * a broken one. Resolves to `{ headers, body, chunked }`.
 */
export function bodyFor(base) {
  const fields = fieldsFrom(base)
  const asObject = (list) => Object.fromEntries(list)
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fields.map((list) => form("application/x-www-form-urlencoded", urlencoded(list))),
    },
    {
      weight: 2,
      arbitrary: fields.map((list) =>
        form("multipart/form-data; boundary=latchfuzz", multipart(list)),
      ),
    },
    {
      weight: 2,
      arbitrary: fields.map((list) => form("application/json", JSON.stringify(asObject(list)))),
    },
    {
      weight: 3,
      arbitrary: fc.oneof(
        // Broken multipart: truncated, boundary missing or wrong, headers missing.
        fields.map((list) =>
          form("multipart/form-data; boundary=latchfuzz", multipart(list).slice(0, -9)),
        ),
        fields.map((list) => form("multipart/form-data", multipart(list))),
        fields.map((list) => form("multipart/form-data; boundary=other", multipart(list))),
        fields.map((list) => form("multipart/form-data; boundary=", multipart(list, ""))),
        fc.constant(form("multipart/form-data; boundary=latchfuzz", "--latchfuzz\r\n\r\n\r\n")),
        fc.constant(form('multipart/form-data; boundary="', "--\r\n")),
        // Broken JSON, JSON of the wrong shape, deep nesting.
        fc
          .constantFrom("{", '{"a":', "null", "[]", "1", '"x"', '{"__proto__":{"x":1}}', "\u0000")
          .map((text) => form("application/json", text)),
        deepJson.map((text) => form("application/json", text)),
        // Fields in a type that is no form.
        fields.map((list) => form("text/plain", urlencoded(list))),
        fields.map((list) => form("application/octet-stream", urlencoded(list))),
        fields.map((list) => form(undefined, urlencoded(list))),
        fields.map((list) =>
          form("application/x-www-form-urlencoded; charset=utf-16", urlencoded(list)),
        ),
        fields.map((list) =>
          form("application/x-www-form-urlencoded", urlencoded(list).replace(/%/g, "%%")),
        ),
        fc
          .constantFrom("%", "%E0%A4%A", "=&=&&", "a".repeat(10_000) + "=b", "%FF%FE=%C0%AF")
          .map((text) => form("application/x-www-form-urlencoded", text)),
        hostileText.map((text) => form("application/x-www-form-urlencoded", text)),
        fc
          .tuple(
            fc.constantFrom(
              "text/html",
              "image/png",
              "application/xml",
              ";;;",
              "multipart/mixed",
              "x/y; charset=\u00ff",
            ),
            hostileText,
          )
          .map(([type, text]) => form(rawBytes(type), text)),
      ),
    },
  )
}

function form(type, text) {
  return { headers: type ? [["content-type", type]] : [], body: { text } }
}

/** Bodies of 1–5 MB, of every content type: the harness allows these a longer bound. */
export const oversizedBody = fc
  .tuple(
    fc.constantFrom(
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=latchfuzz",
      "application/json",
      "text/plain",
      "application/octet-stream",
    ),
    fc.integer({ min: 1, max: 5 }),
    fc.boolean(),
  )
  .map(([type, megabytes, chunked]) => ({
    headers: [["content-type", type]],
    chunked,
    body:
      type === "application/json"
        ? { prefix: '{"username":"', repeat: "a", count: megabytes << 20, suffix: '"}' }
        : type.startsWith("multipart")
          ? {
              prefix: '--latchfuzz\r\ncontent-disposition: form-data; name="username"\r\n\r\n',
              repeat: "é",
              count: megabytes << 19,
              suffix: "\r\n--latchfuzz--\r\n",
            }
          : { prefix: "username=", repeat: "%41", count: Math.floor((megabytes << 20) / 3) },
  }))

// --- Targets ---------------------------------------------------------------------------------

const PAGES = [
  "/",
  "/signin",
  "/signout",
  "/protected",
  "/profile",
  "/admin",
  "/admin/settings",
  "/about",
  "/remote",
  "/dev/mailbox",
  "/confirm",
]
const AUTH_GET = [
  "/auth/signin",
  "/auth/signin/credentials",
  "/auth/signin/nodemailer",
  "/auth/signin/passkey",
  "/auth/signout",
  "/auth/session",
  "/auth/csrf",
  "/auth/providers",
  "/auth/verify-request",
  "/auth/error",
  "/auth/webauthn-options/passkey",
  "/auth/callback/credentials",
  "/auth/callback/nodemailer",
  "/auth/callback/passkey",
  "/auth/signup",
  "/auth/signup/password",
  "/auth/verify-email/password",
  "/auth/reset-password",
  "/auth/new-password/password",
  "/auth/change-password",
  "/auth/account",
  "/auth/unlink/password",
  "/auth/two-factor",
  "/auth/two-factor/setup",
  "/auth/two-factor/nothing",
  "/auth/reauthenticate",
]
const REMOTE = ["signInRemote", "signOutRemote", "accountSummary"].map(
  (name) => `/_app/remote/{{remote}}/${name}`,
)
const OTHER = [
  "/protected/__data.json",
  "/profile/__data.json?x-sveltekit-invalidated=01",
  "/admin/__data.json",
  "/__data.json",
  "/signin/__data.json",
  "/_app/version.json",
  "/favicon.png",
  "/nowhere",
  "/auth",
  "/auth/",
  "/auth/unknown",
  "/auth/callback/unknown",
  "/auth/signin/unknown",
  "/auth/session/extra",
]
export const ALL_PATHS = [...PAGES, ...AUTH_GET, ...REMOTE, ...OTHER]

/** Query strings: the parameters the pages and actions read, with hostile values. */
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "callbackUrl",
        "redirectTo",
        "error",
        "code",
        "action",
        "provider",
        "token",
        "email",
        "sent",
        "x-sveltekit-invalidated",
        "/",
        "/remote",
        "/revoke",
      ),
      fc.oneof(hostileUrl, hostileText),
    ),
    { maxLength: 3 },
  )
  .map((pairs) =>
    pairs.length ? `?${pairs.map(([k, v]) => `${percent(k)}=${percent(v)}`).join("&")}` : "",
  )

/** Path tricks, applied to a real path. */
const pathTrick = fc.constantFrom(
  (path) => `/${path}`,
  (path) => `${path}/`,
  (path) => `${path}//`,
  (path) => path.replace("/", "/%2e%2e/"),
  (path) => path.replace("/a", "/%61").replace("/s", "/%73"),
  (path) => path.replace(/\//g, "%2F"),
  (path) => path.replace(/\/(?=[^/]*$)/, "/..%2f..%2f"),
  (path) => `${path}/../../admin`,
  (path) => `/./${path.slice(1)}`,
  (path) => `${path};x=y`,
  (path) => path.replace("/auth", "/auth;x=y"),
  (path) => path.toUpperCase(),
  (path) => `//evil.example${path}`,
  (path) => `/%2F%2Fevil.example${path}`,
  (path) => `/\\evil.example${path}`,
  (path) => `${path}/${"a".repeat(8_000)}`,
  (path) => `${path}${"/x".repeat(3_000)}`,
  (path) => `${path}%00`,
  (path) => `${path}%`,
  (path) => `${path}%C0%AF`,
  (path) => `${path}/${rawBytes("é😀\u202e")}`,
  (path) => `${path}/${percent("\ud800\u0000\u202e")}`,
  (path) => `/@evil.example${path}`,
  (path) => `${path}#fragment`,
  (path) => `${path}?${"q=1&".repeat(2_000)}`,
  () => "http://evil.example/auth/session",
  () => "{{origin}}/auth/session",
  () => "/_app/remote/",
  () => "/_app/remote/{{remote}}/",
  () => "/_app/remote/{{remote}}/nothing",
  () => "/_app/remote/%2e%2e/{{remote}}/accountSummary",
  () => "/_app/immutable/../../auth/session",
)

const METHODS = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "PURGE",
  "FOO",
  "get",
]

// --- Headers and cookies ---------------------------------------------------------------------

const evilHost = fc.constantFrom(
  "evil.example",
  "evil.example:443",
  "{{host}}.evil.example",
  "localhost",
  "127.0.0.1",
  "[::1]",
  "{{host}}, evil.example",
  "",
  "a".repeat(300),
  rawBytes("ｅｖｉｌ.example"),
)

/** One hostile header (or none), the rest as a browser would send. */
const hostileHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  fc
    .tuple(
      fc.constantFrom("x-forwarded-host", "host", "x-forwarded-server", "x-original-host"),
      evilHost,
    )
    .map((h) => [h]),
  fc
    .constantFrom("x-forwarded-proto", "x-forwarded-protocol", "x-url-scheme")
    .chain((name) =>
      fc
        .constantFrom("https", "javascript", "ftp", "", "https, http")
        .map((value) => [[name, value]]),
    ),
  fc
    .constantFrom("1.2.3.4", "::1", "127.0.0.1, 10.0.0.1", "unknown", "x".repeat(500))
    .map((value) => [["x-forwarded-for", value]]),
  fc
    .constantFrom(
      "for=1.2.3.4;host=evil.example;proto=https",
      "host=evil.example",
      'for="[::1]";by=x',
      ";;;",
      'host="{{host}}"',
    )
    .map((value) => [["forwarded", value]]),
  fc
    .constantFrom(
      "https://evil.example",
      "null",
      "{{origin}}.evil.example",
      "http://localhost",
      "file://",
      "",
      "{{origin}}/",
      "{{origin}}, https://evil.example",
    )
    .map((value) => [["origin", value]]),
  fc
    .constantFrom("https://evil.example/", "{{origin}}/signin", "//evil.example", "null")
    .map((value) => [["referer", value]]),
  fc
    .tuple(
      fc.constantFrom(
        "x-fuzz",
        "user-agent",
        "accept-language",
        "referer",
        "accept",
        "x-sveltekit-action",
        "x-sveltekit-pathname",
        "cookie",
      ),
      fc.integer({ min: 16, max: 60 }),
      fc.constantFrom("a", "é", ";"),
    )
    .map(([name, kb, unit]) => [
      [name, rawBytes(unit.repeat(Math.floor((kb * 1024) / Buffer.byteLength(unit))))],
    ]),
  fc
    .tuple(
      fc.constantFrom(
        "user-agent",
        "accept-language",
        "accept",
        "x-forwarded-host",
        "authorization",
        "content-type",
      ),
      hostileText,
    )
    .map(([name, text]) => [[name, headerSafe(text)]]),
  fc.constantFrom(
    [["accept", "application/json"]],
    [["accept", "text/html"]],
    [["accept", "*/*;q=abc"]],
    [
      ["x-sveltekit-action", "true"],
      ["accept", "application/json"],
    ],
    [["x-sveltekit-invalidated", "01"]],
    [["authorization", "Bearer {{sessionValue}}"]],
    [["authorization", "Basic YWxpY2U6d29uZGVybGFuZA=="]],
    [["transfer-encoding", "chunked"]],
    [["expect", "100-continue"]],
    [["content-encoding", "gzip"]],
    [["content-encoding", "br"]],
    [
      ["connection", "upgrade"],
      ["upgrade", "websocket"],
    ],
  ),
  fc
    .tuple(
      fc.constantFrom("origin", "host", "x-forwarded-host", "content-type"),
      fc.constantFrom("{{origin}}", "https://evil.example"),
    )
    .map(([name, value]) => [
      [name, value],
      [name, "https://evil.example"],
    ]),
)

const chunkValue = fc.oneof(
  fc.constantFrom("", "a", "=", "%", "%%", "!!!", "eyJ", "null", "undefined"),
  fc.base64String({ maxLength: 60 }),
  hostileText.map(headerSafe),
)

/** The Cookie header: none, the real ones, or real ones with one hostile part. */
const cookies = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  { weight: 2, arbitrary: fc.constant(["{{csrfCookie}}"]) },
  { weight: 3, arbitrary: fc.constant(["{{session}}"]) },
  { weight: 2, arbitrary: fc.constant(["{{session}}", "{{csrfCookie}}"]) },
  fc
    .constantFrom(
      "authjs.session-token={{sessionValue|flip:10}}",
      "authjs.session-token={{sessionValue|flip:200}}",
      "authjs.session-token={{sessionValue|cut:20}}",
      "authjs.session-token={{sessionValue|append:x}}",
      "authjs.session-token={{sessionValue|append:%00}}",
      "authjs.session-token={{sessionValue|upper:}}",
      "authjs.session-token.0={{sessionValue}}",
      "authjs.session-token.1={{sessionValue}}",
      "authjs.session-token.0={{sessionValue|cut:30}}; authjs.session-token.1={{sessionValue|drop:30}}",
      "authjs.session-token.1={{sessionValue|cut:30}}; authjs.session-token.0={{sessionValue|drop:30}}",
      "authjs.session-token.0={{sessionValue|cut:30}}; authjs.session-token.2={{sessionValue|drop:30}}",
      "authjs.session-token={{foreignJwe}}",
      "authjs.session-token.0={{foreignJwe}}",
      "authjs.session-token={{sessionValue}}; authjs.session-token=garbage",
      "authjs.session-token=garbage; authjs.session-token={{sessionValue}}",
      "authjs.session-token={{sessionValue}}; authjs.session-token.0=garbage",
      "authjs.csrf-token={{csrf}}",
      "authjs.csrf-token={{csrf}}%7Cdeadbeef",
      "authjs.csrf-token=%7C",
      "authjs.callback-url=https%3A%2F%2Fevil.example",
      "authjs.callback-url=%2F%2Fevil.example",
      "authjs.pkce.code_verifier=x; authjs.state=y; authjs.nonce=z",
      "authjs.session-token={{sessionValue}}",
      "next-auth.session-token=abc; __Secure-next-auth.session-token=abc",
      "__Secure-authjs.session-token={{sessionValue}}",
      "__Host-authjs.csrf-token={{csrf}}",
      "sessionid=abc; connect.sid=s%3Aabc.def; _ga=GA1.2.3.4; PHPSESSID=x",
      "authjs.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..AAAA.BBBB.CCCC",
      "authjs.session-token=eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",
      "authjs.session-token=a.b.c.d.e",
      "authjs.session-token=....",
      "=; ;;; =x; authjs.session-token",
    )
    .map((cookie) => [cookie]),
  fc
    .tuple(fc.integer({ min: 2, max: 3_000 }), chunkValue, fc.boolean())
    .map(([count, value, skipZero]) => [
      Array.from({ length: count }, (_, i) =>
        skipZero && i === 0 ? "" : `authjs.session-token.${i}=${value}`,
      )
        .filter(Boolean)
        .join("; "),
    ]),
  fc
    .tuple(
      fc.constantFrom(
        "authjs.session-token",
        "authjs.session-token.0",
        "authjs.csrf-token",
        "authjs.callback-url",
        "other",
      ),
      chunkValue,
    )
    .map(([name, value]) => [`${name}=${value}`]),
  fc
    .tuple(hostileText, hostileText)
    .map(([name, value]) => [headerSafe(`${name}=${value}`).replace(/;/g, "")]),
)

// --- Requests --------------------------------------------------------------------------------

const asRequest = (category, method, path, extra = {}) => ({
  category,
  method,
  path,
  headers: extra.headers ?? [],
  body: extra.body,
  chunked: extra.chunked ?? false,
  signIn: extra.signIn ?? false,
  large: extra.large ?? false,
})

/** Merges the Cookie parts (one header, or several when duplicated on purpose). */
function withCookies(headers, parts, duplicate) {
  if (!parts.length) return headers
  if (duplicate && parts.length > 1) return [...headers, ...parts.map((part) => ["cookie", part])]
  return [...headers, ["cookie", parts.join("; ")]]
}

const originHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant([["origin", "{{origin}}"]]) },
  { weight: 1, arbitrary: fc.constant([]) },
  fc
    .constantFrom("https://evil.example", "null", "{{origin}}.evil.example", "http://127.0.0.1")
    .map((origin) => [["origin", origin]]),
)

/** Pages and Latch's GET actions, with hostile queries, cookies and headers. */
const getRequests = fc
  .tuple(
    fc.constantFrom(...PAGES, ...AUTH_GET, ...OTHER, ...REMOTE),
    query,
    fc.constantFrom("GET", "GET", "GET", "HEAD"),
    cookies,
    hostileHeaders,
    fc.boolean(),
  )
  .map(([path, search, method, jar, headers, dup]) =>
    asRequest("get", method, path + search, { headers: withCookies(headers, jar, dup) }),
  )

/** The POST actions and form actions, each with its own fields, in every content type. */
const POST_TARGETS = [
  [
    "/auth/two-factor",
    [
      ["csrfToken", "{{csrf}}"],
      ["code", "123456"],
    ],
  ],
  [
    "/auth/two-factor",
    [
      ["csrfToken", "{{csrf}}"],
      ["recoveryCode", "abcde-fghij"],
    ],
  ],
  [
    "/auth/two-factor/setup",
    [
      ["csrfToken", "{{csrf}}"],
      ["setup", "abc"],
      ["code", "123456"],
    ],
  ],
  [
    "/auth/two-factor/disable",
    [
      ["csrfToken", "{{csrf}}"],
      ["code", "123456"],
    ],
  ],
  [
    "/auth/signup/password",
    [
      ["csrfToken", "{{csrf}}"],
      ["email", "alice@example.com"],
      ["password", "correct horse battery"],
      ["name", "Alice"],
      ["callbackUrl", "/"],
    ],
  ],
  [
    "/auth/reset-password/password",
    [
      ["csrfToken", "{{csrf}}"],
      ["email", "alice@example.com"],
      ["callbackUrl", "/"],
    ],
  ],
  [
    "/auth/new-password/password",
    [
      ["csrfToken", "{{csrf}}"],
      ["token", "abc"],
      ["password", "correct horse battery"],
    ],
  ],
  [
    "/auth/change-password/password",
    [
      ["csrfToken", "{{csrf}}"],
      ["currentPassword", "wonderland"],
      ["password", "correct horse battery"],
      ["callbackUrl", "/"],
    ],
  ],
  [
    "/auth/unlink/password",
    [
      ["csrfToken", "{{csrf}}"],
      ["id", ""],
      ["callbackUrl", "/profile"],
    ],
  ],
  [
    "/auth/signin/credentials",
    [
      ["csrfToken", "{{csrf}}"],
      ["callbackUrl", "/"],
    ],
  ],
  [
    "/auth/signin/nodemailer",
    [
      ["csrfToken", "{{csrf}}"],
      ["email", "alice@example.com"],
      ["callbackUrl", "/"],
    ],
  ],
  // "Confirm it is you": core's action and the demo's page (`pages.reauthenticate`), each way.
  [
    "/auth/reauthenticate",
    [
      ["csrfToken", "{{csrf}}"],
      ["method", "password"],
      ["password", "wonderland"],
      ["callbackUrl", "/profile"],
    ],
  ],
  [
    "/auth/reauthenticate",
    [
      ["csrfToken", "{{csrf}}"],
      ["method", "email"],
      ["send", "1"],
    ],
  ],
  [
    "/confirm",
    [
      ["method", "code"],
      ["code", "123456"],
      ["recoveryCode", "abcde-fghij"],
      ["redirectTo", "/profile"],
    ],
  ],
  [
    "/confirm",
    [
      ["method", "passkey"],
      ["action", "authenticate"],
      ["data", '{"id":"x"}'],
      ["redirectTo", "/settings/two-factor"],
    ],
  ],
  [
    "/confirm",
    [
      ["method", "email"],
      ["emailCode", "123456"],
    ],
  ],
  ["/auth/signin/passkey", [["csrfToken", "{{csrf}}"]]],
  ["/auth/signin", [["csrfToken", "{{csrf}}"]]],
  [
    "/auth/callback/credentials",
    [
      ["username", "carol"],
      ["password", "wrong"],
      ["csrfToken", "{{csrf}}"],
      ["callbackUrl", "/"],
    ],
  ],
  [
    "/auth/callback/passkey",
    [
      ["action", "authenticate"],
      ["data", '{"id":"x"}'],
      ["csrfToken", "{{csrf}}"],
    ],
  ],
  [
    "/auth/callback/nodemailer",
    [
      ["token", "abc"],
      ["email", "alice@example.com"],
    ],
  ],
  [
    "/auth/signout",
    [
      ["csrfToken", "{{csrf}}"],
      ["callbackUrl", "/"],
    ],
  ],
  [
    "/auth/session",
    [
      ["csrfToken", "{{csrf}}"],
      ["data", '{"name":"x"}'],
    ],
  ],
  [
    "/signin",
    [
      ["providerId", "credentials"],
      ["redirectTo", "/"],
      ["username", "carol"],
      ["password", "wrong"],
    ],
  ],
  [
    "/signin",
    [
      ["providerId", "nodemailer"],
      ["redirectTo", "/"],
      ["email", "alice@example.com"],
    ],
  ],
  [
    "/signin",
    [
      ["providerId", "passkey"],
      ["redirectTo", "/"],
    ],
  ],
  ["/signout", [["redirectTo", "/"]]],
  ["/profile?/revoke", [["id", "1"]]],
  ["/profile?/revokeOthers", []],
  ["/profile?/nothing", []],
  [
    "/remote?/remote={{remote}}/signInRemote",
    [
      ["providerId", "credentials"],
      ["redirectTo", "/"],
      ["username", "dave"],
      ["password", "x"],
    ],
  ],
  ["/remote?/remote={{remote}}/signOutRemote", [["redirectTo", "/"]]],
  [
    "/_app/remote/{{remote}}/signInRemote",
    [
      ["providerId", "credentials"],
      ["redirectTo", "/"],
      ["username", "dave"],
      ["password", "x"],
    ],
  ],
  ["/_app/remote/{{remote}}/signOutRemote", [["redirectTo", "/"]]],
  ["/_app/remote/{{remote}}/accountSummary", []],
  ["/protected", []],
  ["/", []],
]

/** Swaps the value of one intended field for a hostile one. */
const fieldsWithOneHostile = (base) =>
  base.length === 0
    ? fc.constant(base)
    : fc
        .tuple(fc.nat(base.length - 1), fc.oneof(hostileText, hostileUrl, providerId), fc.boolean())
        .map(([index, value, keep]) =>
          keep ? base : base.map(([name, old], i) => [name, i === index ? value : old]),
        )

const postRequests = fc
  .tuple(
    fc.constantFrom(...POST_TARGETS),
    originHeader,
    cookies,
    hostileHeaders,
    fc.constantFrom("POST", "POST", "POST", "PUT", "PATCH", "DELETE"),
  )
  .chain(([[path, base], origin, jar, headers, method]) =>
    fieldsWithOneHostile(base).chain((fields) =>
      bodyFor(fields).map((body) =>
        asRequest("post", method, path, {
          headers: withCookies([...origin, ...body.headers, ...headers], jar, false),
          body: body.body,
          chunked: body.chunked,
        }),
      ),
    ),
  )

/** Valid sign-ins, through every route, sometimes with a hostile redirect or origin. */
const signInRequests = fc
  .tuple(
    fc.constantFrom(ALICE, BOB),
    fc.constantFrom("callback", "action", "remote", "remote-nojs"),
    fc.oneof({ weight: 3, arbitrary: fc.constant("/") }, hostileUrl),
    fc.oneof(
      { weight: 5, arbitrary: fc.constant("{{origin}}") },
      fc.constantFrom(undefined, "https://evil.example", "null", "{{origin}}.evil.example"),
    ),
    fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, hostileHeaders),
    fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=latchfuzz"),
    fc.constantFrom(undefined, "{{csrfCookie}}", "{{session}}"),
    fc.constantFrom(
      (name) => name,
      (name) => ` ${name.toUpperCase()} `,
      (name) => `${name}\u200b`,
      (name) => `${name}\u0000`,
    ),
  )
  .map(([user, route, redirectTo, origin, extra, type, jar, spell]) => {
    const username = spell(user.username)
    const path = {
      callback: "/auth/callback/credentials",
      action: "/signin",
      remote: "/_app/remote/{{remote}}/signInRemote",
      "remote-nojs": "/remote?/remote={{remote}}/signInRemote",
    }[route]
    const fields =
      route === "callback"
        ? [
            ["username", username],
            ["password", user.password],
            ["callbackUrl", redirectTo],
            ["csrfToken", "{{csrf}}"],
          ]
        : [
            ["providerId", "credentials"],
            ["redirectTo", redirectTo],
            ["username", username],
            ["password", user.password],
          ]
    const text = type.startsWith("multipart") ? multipart(fields) : urlencoded(fields)
    const headers = [["content-type", type], ...(origin ? [["origin", origin]] : []), ...extra]
    // The server may complete it only when the browser says it comes from the app itself: the
    // credentials are right (the demo trims and lowercases usernames) and nothing forged says
    // otherwise. Anything else must not set a session.
    const completes =
      origin === "{{origin}}" &&
      username.trim().toLowerCase() === user.username &&
      !extra.some(([name]) => name === "origin")
    return asRequest("signin", "POST", path, {
      headers: withCookies(headers, jar ? [jar] : [], false),
      body: { text },
      signIn: completes,
    })
  })

/** Requests on twisted paths: dot segments, encoded slashes, the base's edges. */
const pathRequests = fc
  .tuple(
    fc.constantFrom(...ALL_PATHS),
    pathTrick,
    fc.constantFrom("GET", "POST", "HEAD"),
    cookies,
    originHeader,
  )
  .map(([path, trick, method, jar, origin]) =>
    asRequest("path", method, trick(path), {
      headers: withCookies(
        method === "POST" ? [...origin, ["content-type", "application/x-www-form-urlencoded"]] : [],
        jar,
        false,
      ),
      body:
        method === "POST"
          ? { text: "csrfToken={{csrf}}&redirectTo=%2F%2Fevil.example" }
          : undefined,
    }),
  )

/** Hostile headers and cookies on any path. */
const headerRequests = fc
  .tuple(
    fc.constantFrom(...ALL_PATHS),
    fc.constantFrom("GET", "POST"),
    hostileHeaders,
    cookies,
    fc.boolean(),
  )
  .map(([path, method, headers, jar, dup]) =>
    asRequest("headers", method, path, {
      headers: withCookies(
        method === "POST"
          ? [
              ["origin", "{{origin}}"],
              ["content-type", "application/x-www-form-urlencoded"],
              ...headers,
            ]
          : headers,
        jar,
        dup,
      ),
      body: method === "POST" ? { text: "csrfToken={{csrf}}" } : undefined,
    }),
  )

const cookieRequests = fc
  .tuple(fc.constantFrom(...ALL_PATHS), cookies, fc.boolean())
  .map(([path, jar, dup]) =>
    asRequest("cookies", "GET", path, {
      headers: withCookies([], jar.length ? jar : ["{{session}}"], dup),
    }),
  )

/** Every method on every path. */
const methodRequests = fc
  .tuple(
    fc.constantFrom(...ALL_PATHS),
    fc.constantFrom(...METHODS),
    fc.constantFrom([], ["{{session}}"], ["{{csrfCookie}}"]),
    fc.boolean(),
  )
  .map(([path, method, jar, withBody]) =>
    asRequest("method", method, path, {
      headers: withCookies(
        withBody
          ? [
              ["origin", "{{origin}}"],
              ["content-type", "application/json"],
            ]
          : [],
        jar,
        false,
      ),
      body: withBody ? { text: '{"csrfToken":"{{csrf}}"}' } : undefined,
    }),
  )

/** Multi-megabyte bodies to every POST target. */
const oversizedRequests = fc
  .tuple(fc.constantFrom(...POST_TARGETS), oversizedBody, cookies)
  .map(([[path], body, jar]) =>
    asRequest("oversized", "POST", path, {
      headers: withCookies([["origin", "{{origin}}"], ...body.headers], jar, false),
      body: body.body,
      chunked: body.chunked,
      large: true,
    }),
  )

/** Email sign-in and passkey options: the actions that mail or build challenges. */
const emailRequests = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(
        "alice@example.com",
        "ALICE@EXAMPLE.COM",
        "a@b",
        "a@b.c, x@evil.example",
        "a@b.c\r\nBcc: x@evil.example",
        '"a b"@example.com',
        "alice@example.com.",
        "@",
        "x@[127.0.0.1]",
        "alice+1@example.com",
      ),
      hostileText.map((text) => `${text}@example.com`),
      hostileText.map((text) => `alice@${text}.example`),
      hostileText,
    ),
    fc.oneof(fc.constant("/"), hostileUrl),
    fc.constantFrom("/auth/signin/nodemailer", "/signin", "/_app/remote/{{remote}}/signInRemote"),
    fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, hostileHeaders),
  )
  .map(([email, redirectTo, path, extra]) => {
    const fields =
      path === "/auth/signin/nodemailer"
        ? [
            ["email", email],
            ["callbackUrl", redirectTo],
            ["csrfToken", "{{csrf}}"],
          ]
        : [
            ["providerId", "nodemailer"],
            ["email", email],
            ["redirectTo", redirectTo],
          ]
    return asRequest("email", "POST", path, {
      headers: withCookies(
        [["origin", "{{origin}}"], ["content-type", "application/x-www-form-urlencoded"], ...extra],
        ["{{csrfCookie}}"],
        false,
      ),
      body: { text: urlencoded(fields) },
    })
  })

const passkeyRequests = fc
  .tuple(
    fc.constantFrom("authenticate", "register", "", "x", "__proto__"),
    fc.constantFrom([], ["{{session}}"]),
    hostileText,
    fc.oneof(fc.constant(undefined), hostileText),
  )
  .map(([action, jar, email, extra]) =>
    asRequest(
      "passkey",
      "GET",
      `/auth/webauthn-options/passkey?action=${percent(action)}&email=${percent(email)}${extra === undefined ? "" : `&${percent(extra)}=1`}`,
      {
        headers: withCookies([], jar, false),
      },
    ),
  )

/** The session update (POST /auth/session) with real and broken JSON. */
const sessionUpdateRequests = fc
  .tuple(
    fc.oneof(
      fc.constant('{"csrfToken":"{{csrf}}","data":{"name":"Alice"}}'),
      hostileText.map((name) => JSON.stringify({ csrfToken: "{{csrf}}", data: { name } })),
      fc.constantFrom(
        '{"csrfToken":"{{csrf}}","data":null}',
        '{"csrfToken":"{{csrf}}","data":{"name":{"toString":1}}}',
        '{"csrfToken":"{{csrf}}","data":"x"}',
        '{"csrfToken":"{{csrf}}","data":{"__proto__":{"admin":true}}}',
        '{"csrfToken":1}',
        '{"csrfToken":"{{csrf}}"',
        '["{{csrf}}"]',
        "",
      ),
    ),
    fc.constantFrom(
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      undefined,
    ),
    fc.constantFrom(["{{session}}", "{{csrfCookie}}"], ["{{csrfCookie}}"], ["{{session}}"]),
    originHeader,
  )
  .map(([text, type, jar, origin]) =>
    asRequest("session-update", "POST", "/auth/session", {
      headers: withCookies([...origin, ...(type ? [["content-type", type]] : [])], jar, false),
      body: { text },
    }),
  )

/** The whole mix, weighted towards requests that reach deep code. */
export const requestArbitrary = fc.oneof(
  { weight: 5, arbitrary: getRequests },
  { weight: 8, arbitrary: postRequests },
  { weight: 2, arbitrary: signInRequests },
  { weight: 3, arbitrary: pathRequests },
  { weight: 3, arbitrary: headerRequests },
  { weight: 3, arbitrary: cookieRequests },
  { weight: 2, arbitrary: methodRequests },
  { weight: 2, arbitrary: emailRequests },
  { weight: 1, arbitrary: passkeyRequests },
  { weight: 2, arbitrary: sessionUpdateRequests },
)

/** Oversized bodies are drawn apart, a small share of the run: each costs seconds. */
export const oversizedArbitrary = oversizedRequests
