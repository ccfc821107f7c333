/**
 * The catalogue's cases for the providers Latch shipped first: each signs in against a local
 * server answering as the provider's documentation says, with the documented sample profile.
 */
import Apple from "../../../src/providers/apple.js"
import Atlassian from "../../../src/providers/atlassian.js"
import Auth0 from "../../../src/providers/auth0.js"
import Authentik from "../../../src/providers/authentik.js"
import Bitbucket from "../../../src/providers/bitbucket.js"
import Discord from "../../../src/providers/discord.js"
import Facebook from "../../../src/providers/facebook.js"
import GitHub from "../../../src/providers/github.js"
import GitLab from "../../../src/providers/gitlab.js"
import Google from "../../../src/providers/google.js"
import Keycloak from "../../../src/providers/keycloak.js"
import LinkedIn from "../../../src/providers/linkedin.js"
import MicrosoftEntraID from "../../../src/providers/microsoft-entra-id.js"
import Okta from "../../../src/providers/okta.js"
import Reddit from "../../../src/providers/reddit.js"
import Slack from "../../../src/providers/slack.js"
import Spotify from "../../../src/providers/spotify.js"
import Twitch from "../../../src/providers/twitch.js"
import Twitter from "../../../src/providers/twitter.js"
import Zitadel from "../../../src/providers/zitadel.js"
import Zoom from "../../../src/providers/zoom.js"
import type { CatalogueCase } from "./run.js"

const READ = "2026-11-25"

/**
 * Alice at every local OpenID Provider (`test/helpers/oidc-provider.ts`): her subject is her
 * account id there, `alice`, whatever claims a case adds.
 */
const ALICE = {
  name: "Alice Liddell",
  email: "alice@example.com",
  image: "https://img.example/alice.png",
}

/** An unsigned JWT: the ID token of a token response the client only reads, never verifies. */
function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
  return `${part({ alg: "RS256", kid: "graph", typ: "JWT" })}.${part(claims)}.c2lnbmF0dXJl`
}

const github: CatalogueCase = {
  kind: "oauth",
  id: "github",
  factory: GitHub,
  docs: {
    url: "https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps",
    read: READ,
  },
  verifies:
    "a private email is read from GET /user/emails (the primary verified one); the REST API version header",
  server: {
    authorization: "https://github.com/login/oauth/authorize",
    pkce: true,
    token: {
      url: "https://github.com/login/oauth/access_token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        scope: "read:user,user:email",
        token_type: "bearer",
      }),
    },
    api: [
      {
        url: "https://api.github.com/user",
        headers: { "X-GitHub-Api-Version": "2022-11-28" },
        response: {
          login: "octocat",
          id: 1,
          node_id: "MDQ6VXNlcjE=",
          avatar_url: "https://github.com/images/error/octocat_happy.gif",
          gravatar_id: "",
          url: "https://api.github.com/users/octocat",
          html_url: "https://github.com/octocat",
          type: "User",
          site_admin: false,
          name: "monalisa octocat",
          company: "GitHub",
          blog: "https://github.com/blog",
          location: "San Francisco",
          email: null,
          hireable: false,
          bio: "There once was...",
          twitter_username: "monatheoctocat",
          public_repos: 2,
          public_gists: 1,
          followers: 20,
          following: 0,
          created_at: "2008-01-14T04:33:35Z",
          updated_at: "2008-01-14T04:33:35Z",
        },
      },
      {
        url: "https://api.github.com/user/emails",
        headers: { "X-GitHub-Api-Version": "2022-11-28" },
        response: [
          {
            email: "octocat@users.noreply.github.com",
            verified: true,
            primary: false,
            visibility: null,
          },
          { email: "octocat@github.com", verified: true, primary: true, visibility: "private" },
        ],
      },
    ],
  },
  expect: {
    providerAccountId: "1",
    name: "monalisa octocat",
    email: "octocat@github.com",
    image: "https://github.com/images/error/octocat_happy.gif",
  },
}

const bitbucket: CatalogueCase = {
  kind: "oauth",
  id: "bitbucket",
  factory: Bitbucket,
  docs: { url: "https://developer.atlassian.com/cloud/bitbucket/oauth-2/", read: READ },
  verifies:
    "the consumer authenticates with HTTP Basic; the email is the primary confirmed one of GET /2.0/user/emails; the id is account_id",
  server: {
    authorization: "https://bitbucket.org/site/oauth2/authorize",
    token: {
      url: "https://bitbucket.org/site/oauth2/access_token",
      auth: "basic",
      redirectUri: false,
      response: (access_token) => ({
        access_token,
        scopes: "account email",
        expires_in: 7200,
        refresh_token: "Wj5cQWmdMQMPnC7gWd",
        token_type: "bearer",
        state: "authorization_code",
      }),
    },
    api: [
      {
        url: "https://api.bitbucket.org/2.0/user",
        response: {
          type: "user",
          uuid: "{d301aafa-d676-4ee0-88be-962be7417567}",
          account_id: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
          display_name: "Tutorials Account",
          nickname: "tutorials",
          username: "tutorials",
          created_on: "2011-12-20T16:34:07.132459+00:00",
          account_status: "active",
          has_2fa_enabled: null,
          is_staff: false,
          location: null,
          links: {
            self: {
              href: "https://api.bitbucket.org/2.0/users/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D",
            },
            html: { href: "https://bitbucket.org/%7Bd301aafa-d676-4ee0-88be-962be7417567%7D/" },
            avatar: {
              href: "https://secure.gravatar.com/avatar/0a1f3b0b0e2c6e6b4c3c9d1f4d0e8f1c?d=identicon",
            },
          },
        },
      },
      {
        url: "https://api.bitbucket.org/2.0/user/emails",
        response: {
          pagelen: 10,
          page: 1,
          size: 2,
          values: [
            {
              type: "email",
              email: "old-tutorials@example.com",
              is_primary: false,
              is_confirmed: true,
            },
            { type: "email", email: "tutorials@example.com", is_primary: true, is_confirmed: true },
          ],
        },
      },
    ],
  },
  expect: {
    providerAccountId: "557058:c0b72ad0-1cb5-4018-9cdc-0cde8492c443",
    name: "Tutorials Account",
    email: "tutorials@example.com",
    image: "https://secure.gravatar.com/avatar/0a1f3b0b0e2c6e6b4c3c9d1f4d0e8f1c?d=identicon",
  },
}

const discord: CatalogueCase = {
  kind: "oauth",
  id: "discord",
  factory: Discord,
  docs: { url: "https://discord.com/developers/docs/topics/oauth2", read: READ },
  verifies: "the avatar URL is built from the user id and avatar hash on Discord's CDN",
  server: {
    authorization: "https://discord.com/oauth2/authorize",
    token: {
      url: "https://discord.com/api/oauth2/token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        token_type: "Bearer",
        expires_in: 604800,
        refresh_token: "D43f5y0ahjqew82jZ4NViEr2YafMKhue",
        scope: "identify email",
      }),
    },
    api: [
      {
        url: "https://discord.com/api/users/@me",
        response: {
          id: "80351110224678912",
          username: "nelly",
          discriminator: "0",
          global_name: "Nelly",
          avatar: "8342729096ea3675442027381ff50dfe",
          verified: true,
          email: "nelly@discord.com",
          flags: 64,
          banner: "06c16474723fe537c283b8efa61a30c8",
          accent_color: 16711680,
          premium_type: 1,
          public_flags: 64,
        },
      },
    ],
  },
  expect: {
    providerAccountId: "80351110224678912",
    name: "Nelly",
    email: "nelly@discord.com",
    image:
      "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
  },
}

const reddit: CatalogueCase = {
  kind: "oauth",
  id: "reddit",
  factory: Reddit,
  docs: { url: "https://github.com/reddit-archive/reddit/wiki/OAuth2", read: READ },
  verifies:
    "HTTP Basic client authentication; the API call carries a descriptive User-Agent; the HTML-escaped avatar URL is unescaped",
  server: {
    authorization: "https://www.reddit.com/api/v1/authorize",
    token: {
      url: "https://www.reddit.com/api/v1/access_token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        token_type: "bearer",
        expires_in: 86400,
        scope: "identity",
      }),
    },
    api: [
      {
        url: "https://oauth.reddit.com/api/v1/me",
        headers: { "User-Agent": "web:catalogue-client:latch" },
        response: {
          id: "1w72",
          name: "spez",
          icon_img:
            "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_x.png?width=256&amp;height=256&amp;s=abc",
          snoovatar_img: "",
          has_verified_email: true,
          verified: true,
          created_utc: 1118030400,
          total_karma: 940000,
          link_karma: 180000,
          comment_karma: 760000,
          over_18: true,
          is_suspended: false,
        },
      },
    ],
  },
  expect: {
    providerAccountId: "1w72",
    name: "spez",
    email: null,
    image:
      "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_x.png?width=256&height=256&s=abc",
  },
}

const spotify: CatalogueCase = {
  kind: "oauth",
  id: "spotify",
  factory: Spotify,
  docs: {
    url: "https://developer.spotify.com/documentation/web-api/tutorials/code-flow",
    read: READ,
  },
  verifies: "HTTP Basic client authentication; the image is the first of images",
  server: {
    authorization: "https://accounts.spotify.com/authorize",
    token: {
      url: "https://accounts.spotify.com/api/token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        token_type: "Bearer",
        scope: "user-read-email",
        expires_in: 3600,
        refresh_token: "AQBbN4lK0Vh5bT0t",
      }),
    },
    api: [
      {
        url: "https://api.spotify.com/v1/me",
        response: {
          country: "SE",
          display_name: "JM Wizzler",
          email: "email@example.com",
          explicit_content: { filter_enabled: false, filter_locked: false },
          external_urls: { spotify: "https://open.spotify.com/user/wizzler" },
          followers: { href: null, total: 3829 },
          href: "https://api.spotify.com/v1/users/wizzler",
          id: "wizzler",
          images: [
            {
              height: null,
              url: "https://fbcdn-profile-a.akamaihd.net/hprofile-ak-frc3/t1.0-1/1970403_10152215092574354_1798272330_n.jpg",
              width: null,
            },
          ],
          product: "premium",
          type: "user",
          uri: "spotify:user:wizzler",
        },
      },
    ],
  },
  expect: {
    providerAccountId: "wizzler",
    name: "JM Wizzler",
    email: "email@example.com",
    image:
      "https://fbcdn-profile-a.akamaihd.net/hprofile-ak-frc3/t1.0-1/1970403_10152215092574354_1798272330_n.jpg",
  },
}

const zoom: CatalogueCase = {
  kind: "oauth",
  id: "zoom",
  factory: Zoom,
  docs: { url: "https://developers.zoom.us/docs/integrations/oauth/", read: READ },
  verifies: "HTTP Basic client authentication; no scope sent (the app's scopes apply)",
  server: {
    authorization: "https://zoom.us/oauth/authorize",
    token: {
      url: "https://zoom.us/oauth/token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        token_type: "bearer",
        refresh_token: "eyJhbGciOiJIUzUxMiJ9.refresh",
        expires_in: 3599,
        scope: "user:read:user",
        api_url: "https://api.zoom.us",
      }),
    },
    api: [
      {
        url: "https://api.zoom.us/v2/users/me",
        response: {
          id: "KDcuGIm1QgePTO8WbOqwIQ",
          first_name: "Jill",
          last_name: "Chill",
          display_name: "Jill Chill",
          email: "jchill@example.com",
          type: 1,
          role_name: "Owner",
          pmi: 3542471135,
          use_pmi: false,
          timezone: "Asia/Shanghai",
          verified: 1,
          dept: "",
          created_at: "2019-06-01T07:58:03Z",
          last_login_time: "2019-06-01T07:58:03Z",
          pic_url: "https://example.com/photo.jpg",
          language: "en-US",
          status: "active",
          role_id: "0",
          account_id: "q6gBJVO5TzexKYTb_I2rpg",
        },
      },
    ],
  },
  expect: {
    providerAccountId: "KDcuGIm1QgePTO8WbOqwIQ",
    name: "Jill Chill",
    email: "jchill@example.com",
    image: "https://example.com/photo.jpg",
  },
}

const atlassian: CatalogueCase = {
  kind: "oauth",
  id: "atlassian",
  factory: Atlassian,
  docs: {
    url: "https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/",
    read: READ,
  },
  verifies: "the secret in the token request's body; the User Identity API's GET /me",
  server: {
    authorization: "https://auth.atlassian.com/authorize",
    token: {
      url: "https://auth.atlassian.com/oauth/token",
      auth: "post",
      response: (access_token) => ({
        access_token,
        expires_in: 3600,
        scope: "read:me",
        token_type: "Bearer",
      }),
    },
    api: [
      {
        url: "https://api.atlassian.com/me",
        response: {
          account_type: "atlassian",
          account_id: "112233:aabbccdd-1122-3344-5566-778899aabbcc",
          email: "mia@example.com",
          name: "Mia Krystof",
          picture:
            "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233:aabbccdd-1122-3344-5566-778899aabbcc/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
          account_status: "active",
          nickname: "mkrystof",
          zoneinfo: "Australia/Sydney",
          locale: "en-US",
          extended_profile: {
            job_title: "Designer",
            organization: "mia@example.com",
            department: "Design team",
            location: "Sydney",
          },
        },
      },
    ],
  },
  expect: {
    providerAccountId: "112233:aabbccdd-1122-3344-5566-778899aabbcc",
    name: "Mia Krystof",
    email: "mia@example.com",
    image:
      "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/112233:aabbccdd-1122-3344-5566-778899aabbcc/1234abcd-9876-54aa-33aa-1234dfsade9487ds",
  },
}

const facebook: CatalogueCase = {
  kind: "oauth",
  id: "facebook",
  factory: Facebook,
  docs: {
    url: "https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow",
    read: READ,
  },
  verifies: "the secret in the token request's body; the Graph API's /me with its fields",
  server: {
    authorization: "https://www.facebook.com/dialog/oauth",
    token: {
      url: "https://graph.facebook.com/oauth/access_token",
      auth: "post",
      response: (access_token) => ({ access_token, token_type: "bearer", expires_in: 5183944 }),
    },
    api: [
      {
        url: "https://graph.facebook.com/me?fields=id,name,email,picture.type(large)",
        response: {
          id: "10158765432101234",
          name: "Jane Smith",
          email: "jsmith@example.com",
          picture: {
            data: {
              height: 200,
              is_silhouette: false,
              url: "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158765432101234&height=200&width=200",
              width: 200,
            },
          },
        },
      },
    ],
  },
  expect: {
    providerAccountId: "10158765432101234",
    name: "Jane Smith",
    email: "jsmith@example.com",
    image:
      "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158765432101234&height=200&width=200",
  },
}

const twitter: CatalogueCase = {
  kind: "oauth",
  id: "twitter",
  factory: Twitter,
  docs: {
    url: "https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code",
    read: READ,
  },
  verifies: "PKCE is required; HTTP Basic for a confidential client; the user under data",
  server: {
    authorization: "https://x.com/i/oauth2/authorize",
    pkce: true,
    token: {
      url: "https://api.x.com/2/oauth2/token",
      auth: "basic",
      response: (access_token) => ({
        token_type: "bearer",
        expires_in: 7200,
        access_token,
        scope: "users.read tweet.read",
      }),
    },
    api: [
      {
        url: "https://api.x.com/2/users/me?user.fields=profile_image_url",
        response: {
          data: {
            id: "2244994945",
            name: "X Developers",
            username: "XDevelopers",
            profile_image_url:
              "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
          },
        },
      },
    ],
  },
  expect: {
    providerAccountId: "2244994945",
    name: "X Developers",
    email: null,
    image: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
  },
}

const gitlab: CatalogueCase = {
  kind: "oauth",
  id: "gitlab",
  factory: GitLab,
  docs: { url: "https://docs.gitlab.com/api/oauth2/", read: READ },
  verifies: "the numeric id stored as a string; GET /api/v4/user",
  server: {
    authorization: "https://gitlab.com/oauth/authorize",
    token: {
      url: "https://gitlab.com/oauth/token",
      auth: "basic",
      response: (access_token) => ({
        access_token,
        token_type: "Bearer",
        expires_in: 7200,
        refresh_token: "8257e65c97202ed1726cf9571600918f3bffb2544b26e00a61df9897668c33a1",
        scope: "read_user",
        created_at: 1607635748,
      }),
    },
    api: [
      {
        url: "https://gitlab.com/api/v4/user",
        response: {
          id: 1,
          username: "john_smith",
          name: "John Smith",
          state: "active",
          locked: false,
          avatar_url: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
          web_url: "https://gitlab.com/john_smith",
          created_at: "2012-05-23T08:00:58Z",
          bio: "",
          location: null,
          public_email: "john@example.com",
          linkedin: "",
          twitter: "",
          website_url: "",
          organization: "",
          job_title: "Operations Specialist",
          pronouns: "he/him",
          bot: false,
          last_sign_in_at: "2012-06-01T11:41:01Z",
          confirmed_at: "2012-05-23T09:05:22Z",
          email: "john@example.com",
          commit_email: "john-codes@example.com",
          two_factor_enabled: true,
        },
      },
    ],
  },
  expect: {
    providerAccountId: "1",
    name: "John Smith",
    email: "john@example.com",
    image: "https://gitlab.com/uploads/-/system/user/avatar/1/index.jpg",
  },
}

const entraTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
const entraObjectId = "48d31887-5fad-4d73-a9f5-3c356e68a038"

const microsoftEntraId: CatalogueCase = {
  kind: "oauth",
  id: "microsoft-entra-id",
  factory: MicrosoftEntraID,
  docs: {
    url: "https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow",
    read: READ,
  },
  verifies:
    "without a tenant: the common endpoints, Graph's GET /v1.0/me as the profile, the ID token's sub as the id",
  server: {
    authorization: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    pkce: true,
    token: {
      url: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
      auth: "post",
      response: (access_token) => ({
        token_type: "Bearer",
        scope: "openid User.Read profile email",
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token,
        id_token: unsignedJwt({
          ver: "2.0",
          iss: `https://login.microsoftonline.com/${entraTenant}/v2.0`,
          sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
          aud: "catalogue-client",
          exp: 4102444800,
          iat: 1764000000,
          nbf: 1764000000,
          oid: entraObjectId,
          tid: entraTenant,
        }),
      }),
    },
    api: [
      {
        url: "https://graph.microsoft.com/v1.0/me",
        response: {
          "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity",
          businessPhones: ["+1 412 555 0109"],
          displayName: "Megan Bowen",
          givenName: "Megan",
          jobTitle: "Auditor",
          mail: "MeganB@M365x214355.onmicrosoft.com",
          mobilePhone: null,
          officeLocation: "12/1110",
          preferredLanguage: "en-US",
          surname: "Bowen",
          userPrincipalName: "MeganB@M365x214355.onmicrosoft.com",
          id: entraObjectId,
        },
      },
    ],
  },
  expect: {
    providerAccountId: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    name: "Megan Bowen",
    // Stored in lower case, as Auth.js stores it.
    email: "meganb@m365x214355.onmicrosoft.com",
    image: null,
  },
}

const google: CatalogueCase = {
  kind: "oidc",
  id: "google",
  factory: Google,
  docs: { url: "https://developers.google.com/identity/openid-connect/openid-connect", read: READ },
  verifies: "the fixed issuer https://accounts.google.com; the user from the ID token",
  op: {
    issuer: "https://accounts.google.com",
    claims: {
      given_name: "Alice",
      family_name: "Liddell",
      hd: "example.com",
    },
  },
  expect: { providerAccountId: "alice", ...ALICE },
}

const slack: CatalogueCase = {
  kind: "oidc",
  id: "slack",
  factory: Slack,
  docs: { url: "https://docs.slack.dev/authentication/sign-in-with-slack/", read: READ },
  verifies: "the fixed issuer https://slack.com; the workspace claims beside the user's",
  op: {
    issuer: "https://slack.com",
    claims: {
      "https://slack.com/user_id": "U0R7JM",
      "https://slack.com/team_id": "T0R7GR",
      "https://slack.com/team_name": "kraneflannel",
      "https://slack.com/team_domain": "kraneflannel",
    },
  },
  expect: { providerAccountId: "alice", ...ALICE },
}

const linkedin: CatalogueCase = {
  kind: "oidc",
  id: "linkedin",
  factory: LinkedIn,
  docs: {
    url: "https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2",
    read: READ,
  },
  verifies:
    "the fixed issuer https://www.linkedin.com/oauth; client_secret_post; state alone, no PKCE",
  op: {
    issuer: "https://www.linkedin.com/oauth",
    // LinkedIn supports PKCE only for native apps it has enabled: web clients send none.
    configuration: { pkce: { required: () => false } },
    claims: { given_name: "Alice", family_name: "Liddell", locale: "en-US" },
  },
  client: "post",
  expect: { providerAccountId: "alice", ...ALICE },
}

const twitch: CatalogueCase = {
  kind: "oidc",
  id: "twitch",
  factory: Twitch,
  docs: {
    url: "https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/",
    read: READ,
  },
  verifies:
    "the fixed issuer https://id.twitch.tv/oauth2; client_secret_post; the email, picture and login come through the claims parameter",
  op: {
    issuer: "https://id.twitch.tv/oauth2",
    // The scope asks for no profile: the claims parameter does. (The token response's `scope`
    // is a string here; Twitch's array is `flow.test.ts`'s case.)
    configuration: {
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: true },
        claimsParameter: { enabled: true },
      },
    },
  },
  client: "post",
  expect: { providerAccountId: "alice", name: "alice", email: ALICE.email, image: ALICE.image },
}

const apple: CatalogueCase = {
  kind: "oidc",
  id: "apple",
  factory: Apple,
  docs: {
    url: "https://developer.apple.com/documentation/signinwithapplerestapi/request-an-authorization-to-the-sign-in-with-apple-server.",
    read: READ,
  },
  verifies:
    "the fixed issuer https://appleid.apple.com; client_secret_post; the form_post callback",
  op: {
    issuer: "https://appleid.apple.com",
    claims: {
      email_verified: "true",
      is_private_email: "false",
      real_user_status: 2,
    },
  },
  client: "post",
  expect: { providerAccountId: "alice", name: null, email: ALICE.email, image: null },
}

const auth0: CatalogueCase = {
  kind: "oidc",
  id: "auth0",
  factory: Auth0,
  docs: {
    url: "https://auth0.com/docs/get-started/authentication-and-authorization-flow/authorization-code-flow",
    read: READ,
  },
  verifies:
    "the tenant's issuer with Auth0's trailing slash, from AUTH_AUTH0_ISSUER given without it",
  op: {
    issuer: "https://example.us.auth0.com/",
    claims: { nickname: "alice" },
  },
  env: () => ({ AUTH_AUTH0_ISSUER: "https://example.us.auth0.com" }),
  expect: { providerAccountId: "alice", ...ALICE },
}

const authentik: CatalogueCase = {
  kind: "oidc",
  id: "authentik",
  factory: Authentik,
  docs: { url: "https://docs.goauthentik.io/add-secure-apps/providers/oauth2/", read: READ },
  verifies: "the application's issuer ends in a slash, added when AUTH_AUTHENTIK_ISSUER lacks it",
  op: {
    issuer: "https://authentik.example.com/application/o/my-app/",
    claims: {
      groups: ["authentik Admins"],
    },
  },
  env: () => ({ AUTH_AUTHENTIK_ISSUER: "https://authentik.example.com/application/o/my-app" }),
  expect: {
    providerAccountId: "alice",
    ...ALICE,
  },
}

const keycloak: CatalogueCase = {
  kind: "oidc",
  id: "keycloak",
  factory: Keycloak,
  docs: { url: "https://www.keycloak.org/securing-apps/oidc-layers", read: READ },
  verifies: "the realm's issuer (a path) from AUTH_KEYCLOAK_ISSUER",
  op: { path: "/realms/acme" },
  env: (op) => ({ AUTH_KEYCLOAK_ISSUER: op.issuer }),
  expect: { providerAccountId: "alice", ...ALICE },
}

const okta: CatalogueCase = {
  kind: "oidc",
  id: "okta",
  factory: Okta,
  docs: {
    url: "https://developer.okta.com/docs/guides/implement-grant-type/authcode/main/",
    read: READ,
  },
  verifies: "a custom authorization server's issuer (/oauth2/default) from AUTH_OKTA_ISSUER",
  op: { path: "/oauth2/default" },
  env: (op) => ({ AUTH_OKTA_ISSUER: op.issuer }),
  expect: { providerAccountId: "alice", ...ALICE },
}

const zitadel: CatalogueCase = {
  kind: "oidc",
  id: "zitadel",
  factory: Zitadel,
  docs: { url: "https://zitadel.com/docs/apis/openidoauth/endpoints", read: READ },
  verifies:
    "the instance's issuer from AUTH_ZITADEL_ISSUER; the profile from the userinfo endpoint",
  op: {
    claims: {
      "urn:zitadel:iam:user:resourceowner:id": "2219634455600",
      "urn:zitadel:iam:user:resourceowner:name": "ACME",
    },
  },
  env: (op) => ({ AUTH_ZITADEL_ISSUER: op.issuer }),
  expect: { providerAccountId: "alice", ...ALICE },
}

export const cases: CatalogueCase[] = [
  apple,
  github,
  bitbucket,
  discord,
  reddit,
  spotify,
  zoom,
  atlassian,
  facebook,
  twitter,
  gitlab,
  microsoftEntraId,
  google,
  slack,
  linkedin,
  twitch,
  auth0,
  authentik,
  keycloak,
  okta,
  zitadel,
]
