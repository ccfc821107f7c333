/**
 * Plain OAuth 2.0 providers, second group: HubSpot to osu!. Each server is described from the
 * provider's documentation: client authentication, the token response's shape, and how each
 * profile API takes the token.
 */
import { customFetch } from "../../../src/markers.js"
import type { ProviderFetch } from "../../../src/providers/index.js"
import HubSpot from "../../../src/providers/hubspot.js"
import Instagram from "../../../src/providers/instagram.js"
import Kakao from "../../../src/providers/kakao.js"
import Mailchimp from "../../../src/providers/mailchimp.js"
import Mailru from "../../../src/providers/mailru.js"
import Mastodon from "../../../src/providers/mastodon.js"
import Mattermost from "../../../src/providers/mattermost.js"
import Medium from "../../../src/providers/medium.js"
import Naver from "../../../src/providers/naver.js"
import Netlify from "../../../src/providers/netlify.js"
import NetSuite from "../../../src/providers/netsuite.js"
import Nextcloud from "../../../src/providers/nextcloud.js"
import Notion from "../../../src/providers/notion.js"
import Osso from "../../../src/providers/osso.js"
import Osu from "../../../src/providers/osu.js"
import type { CatalogueCase } from "./run.js"

const READ = "2026-11-25"

/**
 * The local server matches APIs by their fixed path; HubSpot's token metadata takes the token as
 * the last path segment. This moves it into the `token_in_path` query parameter on the way to
 * the server, which then checks it as the access token.
 */
function tokenInPath(prefix: string) {
  return (options: Record<string | symbol, unknown> = {}) => {
    const inner = options[customFetch] as ProviderFetch
    const fetchFn: ProviderFetch = (input, init) => {
      if (!input.startsWith(prefix)) return inner(input, init)
      const url = new URL(input)
      const token = decodeURIComponent(url.pathname.slice(new URL(prefix).pathname.length))
      url.pathname = new URL(prefix).pathname.replace(/\/$/, "")
      url.searchParams.set("token_in_path", token)
      return inner(url.href, init)
    }
    return { ...options, [customFetch]: fetchFn }
  }
}
const hubspotPath = tokenInPath("https://api.hubapi.com/oauth/v1/access-tokens/")

export const cases: CatalogueCase[] = [
  {
    kind: "oauth",
    id: "hubspot",
    factory: (options) => HubSpot(hubspotPath(options)),
    docs: {
      url: "https://developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/get-oauth-token-metadata",
      read: READ,
    },
    verifies:
      "client in the token body; the profile is the token's metadata, the token in the path",
    server: {
      authorization: "https://app.hubspot.com/oauth/authorize",
      token: {
        url: "https://api.hubapi.com/oauth/v1/token",
        auth: "post",
        response: (access_token) => ({
          token_type: "bearer",
          access_token,
          refresh_token: "6f18f21e-a743-4509-b7fd-1a5e632fffa1",
          expires_in: 1800,
        }),
      },
      api: [
        {
          url: "https://api.hubapi.com/oauth/v1/access-tokens",
          auth: { query: "token_in_path" },
          response: {
            token: "CJSP5qf1KhICAQEYs-gDIIGOBii1hQIyGQAf3xBKmlwHjX7OIpuIFEavB2-qYAGQsF4",
            user: "test@hubspot.com",
            hub_domain: "demo.hubapi.com",
            scopes: ["oauth"],
            hub_id: 62515,
            app_id: 456,
            expires_in: 1754,
            user_id: 123,
            token_type: "access",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "123",
      name: "test@hubspot.com",
      email: "test@hubspot.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "instagram",
    factory: Instagram,
    docs: {
      url: "https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login",
      read: READ,
    },
    verifies:
      "client in the body; token answer in data[] without token_type; /me with the token as access_token",
    server: {
      authorization: "https://www.instagram.com/oauth/authorize",
      token: {
        url: "https://api.instagram.com/oauth/access_token",
        auth: "post",
        response: (access_token) => ({
          data: [
            {
              access_token,
              user_id: 17841405793187218,
              permissions: "instagram_business_basic",
            },
          ],
        }),
      },
      api: [
        {
          url: "https://graph.instagram.com/me?fields=id%2Cuser_id%2Cusername%2Cname%2Caccount_type%2Cprofile_picture_url",
          auth: { query: "access_token" },
          response: {
            id: "7590282904327930",
            user_id: "17841405793187218",
            username: "jayposiris",
            name: "Jay Posiris",
            account_type: "BUSINESS",
            profile_picture_url: "https://scontent.cdninstagram.com/v/t51.2885-19/jay.jpg",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "7590282904327930",
      name: "jayposiris",
      email: null,
      image: "https://scontent.cdninstagram.com/v/t51.2885-19/jay.jpg",
    },
  },
  {
    kind: "oauth",
    id: "kakao",
    factory: Kakao,
    docs: { url: "https://developers.kakao.com/docs/latest/en/kakaologin/rest-api", read: READ },
    verifies: "REST API key and secret in the token body; numeric user id; kakao_account fields",
    server: {
      authorization: "https://kauth.kakao.com/oauth/authorize",
      token: {
        url: "https://kauth.kakao.com/oauth/token",
        auth: "post",
        response: (access_token) => ({
          token_type: "bearer",
          access_token,
          expires_in: 43199,
          refresh_token: "refresh",
          refresh_token_expires_in: 5184000,
          scope: "account_email profile_image profile_nickname",
        }),
      },
      api: [
        {
          url: "https://kapi.kakao.com/v2/user/me",
          response: {
            id: 123456789,
            connected_at: "2022-04-11T01:45:28Z",
            kakao_account: {
              profile_nickname_needs_agreement: false,
              profile_image_needs_agreement: false,
              profile: {
                nickname: "홍길동",
                thumbnail_image_url: "http://yyy.kakao.com/.../img_110x110.jpg",
                profile_image_url: "http://yyy.kakao.com/dn/.../img_640x640.jpg",
                is_default_image: false,
              },
              email_needs_agreement: false,
              is_email_valid: true,
              is_email_verified: true,
              email: "sample@sample.com",
            },
            properties: { nickname: "홍길동카톡" },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "123456789",
      name: "홍길동",
      email: "sample@sample.com",
      image: "http://yyy.kakao.com/dn/.../img_640x640.jpg",
    },
  },
  {
    kind: "oauth",
    id: "mailchimp",
    factory: Mailchimp,
    docs: {
      url: "https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/",
      read: READ,
    },
    verifies:
      "token answer without token_type, scope null, expires_in 0; metadata with Authorization: OAuth",
    server: {
      authorization: "https://login.mailchimp.com/oauth2/authorize",
      token: {
        url: "https://login.mailchimp.com/oauth2/token",
        auth: "post",
        response: (access_token) => ({ access_token, expires_in: 0, scope: null }),
      },
      api: [
        {
          url: "https://login.mailchimp.com/oauth2/metadata",
          auth: { scheme: "OAuth" },
          response: {
            dc: "us1",
            role: "owner",
            accountname: "Freddie's Jokes",
            user_id: 42,
            login: {
              email: "freddie@example.com",
              avatar: null,
              login_id: 98765,
              login_name: "freddie",
              login_email: "freddie@example.com",
            },
            login_url: "https://login.mailchimp.com",
            api_endpoint: "https://us1.api.mailchimp.com",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "98765",
      name: "Freddie's Jokes",
      email: "freddie@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "mailru",
    factory: Mailru,
    docs: {
      url: "https://id.vk.com/about/business/go/docs/ru/vkid/latest/oauth/oauth-mail/index",
      read: READ,
    },
    verifies: "token answer without token_type; /userinfo with the token as access_token",
    server: {
      authorization: "https://oauth.mail.ru/login",
      token: {
        url: "https://oauth.mail.ru/token",
        auth: "post",
        response: (access_token) => ({ expires_in: 3600, access_token, refresh_token: "r" }),
      },
      api: [
        {
          url: "https://oauth.mail.ru/userinfo",
          auth: { query: "access_token" },
          response: {
            id: "13420947",
            client_id: "catalogue-client",
            gender: "m",
            name: "Ivan Ivanov",
            nickname: "ivan",
            locale: "ru_RU",
            first_name: "Ivan",
            last_name: "Ivanov",
            email: "ivan@mail.ru",
            birthday: "01.01.1990",
            image: "https://filin.mail.ru/pic?email=ivan%40mail.ru",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "13420947",
      name: "Ivan Ivanov",
      email: "ivan@mail.ru",
      image: "https://filin.mail.ru/pic?email=ivan%40mail.ru",
    },
  },
  {
    kind: "oauth",
    id: "mastodon",
    factory: Mastodon,
    env: { AUTH_MASTODON_ISSUER: "https://mastodon.example" },
    docs: { url: "https://docs.joinmastodon.org/methods/oauth/", read: READ },
    verifies: "endpoints under AUTH_MASTODON_ISSUER; client in the token body; verify_credentials",
    server: {
      authorization: "https://mastodon.example/oauth/authorize",
      token: {
        url: "https://mastodon.example/oauth/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          scope: "read",
          created_at: 1573979017,
        }),
      },
      api: [
        {
          url: "https://mastodon.example/api/v1/accounts/verify_credentials",
          response: {
            id: "14715",
            username: "trwnh",
            acct: "trwnh",
            display_name: "infinite love ⴳ",
            locked: false,
            bot: false,
            created_at: "2016-11-24T10:02:12.085Z",
            note: "",
            url: "https://mastodon.example/@trwnh",
            avatar: "https://files.mastodon.example/accounts/avatars/original/a.png",
            avatar_static: "https://files.mastodon.example/accounts/avatars/original/a.png",
            header: "https://files.mastodon.example/accounts/headers/original/h.png",
            header_static: "https://files.mastodon.example/accounts/headers/original/h.png",
            followers_count: 821,
            following_count: 178,
            statuses_count: 33120,
            last_status_at: "2019-11-24T15:49:42.251Z",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "14715",
      name: "trwnh",
      email: null,
      image: "https://files.mastodon.example/accounts/avatars/original/a.png",
    },
  },
  {
    kind: "oauth",
    id: "mattermost",
    factory: Mattermost,
    env: { AUTH_MATTERMOST_ISSUER: "https://chat.example.com" },
    docs: {
      url: "https://developers.mattermost.com/integrate/apps/authentication/oauth2/",
      read: READ,
    },
    verifies:
      "endpoints under AUTH_MATTERMOST_ISSUER; /oauth/access_token with the client in the body",
    server: {
      authorization: "https://chat.example.com/oauth/authorize",
      token: {
        url: "https://chat.example.com/oauth/access_token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          expires_in: 3600,
          scope: "user",
          refresh_token: "r",
        }),
      },
      api: [
        {
          url: "https://chat.example.com/api/v4/users/me",
          response: {
            id: "8wq3ciq7f7bbtbzqtdr1b9khhy",
            create_at: 1511983209812,
            update_at: 1511983209812,
            delete_at: 0,
            username: "alice",
            auth_data: "",
            auth_service: "",
            email: "alice@example.com",
            email_verified: true,
            nickname: "",
            first_name: "Alice",
            last_name: "Liddell",
            position: "",
            roles: "system_user",
            locale: "en",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "8wq3ciq7f7bbtbzqtdr1b9khhy",
      name: "alice",
      email: "alice@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "medium",
    factory: Medium,
    docs: { url: "https://github.com/Medium/medium-api-docs", read: READ },
    verifies: "token answer with scope as an array and expires_at in ms; profile inside data",
    server: {
      authorization: "https://medium.com/m/oauth/authorize",
      token: {
        url: "https://api.medium.com/v1/tokens",
        auth: "post",
        response: (access_token) => ({
          token_type: "Bearer",
          access_token,
          refresh_token: "r",
          scope: ["basicProfile"],
          expires_at: Date.now() + 60 * 24 * 3600 * 1000,
        }),
      },
      api: [
        {
          url: "https://api.medium.com/v1/me",
          response: {
            data: {
              id: "5303d74c64f66366f00cb9b2a94f3251bf5",
              username: "majelbstoat",
              name: "Jamie Talbot",
              url: "https://medium.com/@majelbstoat",
              imageUrl: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "5303d74c64f66366f00cb9b2a94f3251bf5",
      name: "Jamie Talbot",
      email: null,
      image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
    },
  },
  {
    kind: "oauth",
    id: "naver",
    factory: Naver,
    docs: { url: "https://developers.naver.com/docs/login/api/api.md", read: READ },
    verifies:
      "client as token parameters, no redirect_uri needed; expires_in as a string; response{}",
    server: {
      authorization: "https://nid.naver.com/oauth2.0/authorize",
      token: {
        url: "https://nid.naver.com/oauth2.0/token",
        auth: "post",
        redirectUri: false,
        response: (access_token) => ({
          access_token,
          refresh_token: "r",
          token_type: "bearer",
          expires_in: "3600",
        }),
      },
      api: [
        {
          url: "https://openapi.naver.com/v1/nid/me",
          response: {
            resultcode: "00",
            message: "success",
            response: {
              email: "openapi@naver.com",
              nickname: "OpenAPI",
              profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
              age: "40-49",
              gender: "F",
              id: "32742776",
              name: "오픈 API",
              birthday: "10-01",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "32742776",
      name: "OpenAPI",
      email: "openapi@naver.com",
      image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
    },
  },
  {
    kind: "oauth",
    id: "netlify",
    factory: Netlify,
    docs: { url: "https://docs.netlify.com/api/get-started/#authentication", read: READ },
    verifies: "client in the token body; /api/v1/user",
    server: {
      authorization: "https://app.netlify.com/authorize",
      token: {
        url: "https://api.netlify.com/oauth/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          created_at: 1700000000,
        }),
      },
      api: [
        {
          url: "https://api.netlify.com/api/v1/user",
          response: {
            id: "5a1bd6d0a6e7d2f1b3c4a5b6",
            uid: null,
            full_name: "Alice Liddell",
            avatar_url: "https://avatars.netlify.example/alice.png",
            email: "alice@example.com",
            site_count: 3,
            created_at: "2019-01-01T00:00:00.000Z",
            login_providers: ["github"],
          },
        },
      ],
    },
    expect: {
      providerAccountId: "5a1bd6d0a6e7d2f1b3c4a5b6",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://avatars.netlify.example/alice.png",
    },
  },
  {
    kind: "oauth",
    id: "netsuite",
    factory: NetSuite,
    options: {
      accountID: "1234567_SB1",
      userinfo:
        "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=customscript_user&deploy=1",
    },
    docs: {
      url: "https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_158074210415.html",
      read: READ,
    },
    verifies:
      "endpoints on the account's domains (accountID 1234567_SB1); HTTP Basic; RESTlet profile",
    server: {
      authorization: "https://1234567-sb1.app.netsuite.com/app/login/oauth2/authorize.nl",
      token: {
        url: "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token",
        auth: "basic",
        response: (access_token) => ({
          access_token,
          refresh_token: "r",
          expires_in: "3600",
          token_type: "bearer",
        }),
      },
      api: [
        {
          url: "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=customscript_user&deploy=1",
          response: {
            id: 7,
            name: "Alice Liddell",
            email: "alice@example.com",
            location: 1,
            role: 3,
            roleId: "administrator",
            roleCenter: "BASIC",
            contact: 0,
            subsidiary: 1,
            department: 0,
          },
        },
      ],
    },
    expect: {
      providerAccountId: "7",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "nextcloud",
    factory: Nextcloud,
    env: { AUTH_NEXTCLOUD_ISSUER: "https://cloud.example.com/nc" },
    docs: {
      url: "https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html",
      read: READ,
    },
    verifies:
      "endpoints under AUTH_NEXTCLOUD_ISSUER (with a path); user_id from the token; OCS-APIRequest header",
    server: {
      authorization: "https://cloud.example.com/nc/apps/oauth2/authorize",
      token: {
        url: "https://cloud.example.com/nc/apps/oauth2/api/v1/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          expires_in: 3600,
          refresh_token: "r",
          user_id: "alice",
        }),
      },
      api: [
        {
          url: "https://cloud.example.com/nc/ocs/v1.php/cloud/users/alice?format=json",
          headers: { "OCS-APIRequest": "true" },
          response: {
            ocs: {
              meta: { status: "ok", statuscode: 100, message: "OK" },
              data: {
                enabled: true,
                storageLocation: "/var/www/data/alice",
                id: "alice",
                email: "alice@example.com",
                displayname: "Alice Liddell",
                phone: "",
                address: "",
                website: "",
                twitter: "",
                groups: ["users"],
                language: "en",
                locale: "en_GB",
              },
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "notion",
    factory: Notion,
    docs: { url: "https://developers.notion.com/docs/authorization", read: READ },
    verifies: "HTTP Basic; token answer with owner and bot fields; users/me with Notion-Version",
    server: {
      authorization: "https://api.notion.com/v1/oauth/authorize",
      token: {
        url: "https://api.notion.com/v1/oauth/token",
        auth: "basic",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          bot_id: "b3414d65-1224-5ty7-6ffr-cc9d8773drt601288f",
          duplicated_template_id: null,
          owner: {
            type: "user",
            user: {
              object: "user",
              id: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
              name: "christine makenotion",
              avatar_url: null,
              type: "person",
              person: { email: "christine@makenotion.com" },
            },
          },
          workspace_icon: "https://website.domain/images/image.png",
          workspace_id: "j565j4d7x3-2882-61bs-564a-jj9d9ui-c36hxfr7x",
          workspace_name: "Ada's Notion Workspace",
        }),
      },
      api: [
        {
          url: "https://api.notion.com/v1/users/me",
          headers: { "Notion-Version": "2022-06-28" },
          response: {
            object: "user",
            id: "16d84278-ab0e-484c-9bdd-b35da3bd8905",
            name: "pied piper",
            avatar_url: null,
            type: "bot",
            bot: {
              owner: {
                type: "user",
                user: {
                  object: "user",
                  id: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
                  name: "christine makenotion",
                  avatar_url: null,
                  type: "person",
                  person: { email: "christine@makenotion.com" },
                },
              },
              workspace_name: "Ada's Notion Workspace",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
      name: "christine makenotion",
      email: "christine@makenotion.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "osso",
    factory: Osso,
    env: { AUTH_OSSO_ISSUER: "https://sso.example.com/" },
    docs: { url: "https://ossoapp.com/docs/reference/oauth", read: READ },
    verifies:
      "endpoints under AUTH_OSSO_ISSUER; client in the token body; /oauth/me with access_token",
    server: {
      authorization: "https://sso.example.com/oauth/authorize",
      token: {
        url: "https://sso.example.com/oauth/token",
        auth: "post",
        response: (access_token) => ({ access_token, token_type: "bearer", expires_in: 600 }),
      },
      api: [
        {
          url: "https://sso.example.com/oauth/me",
          auth: { query: "access_token" },
          response: {
            id: "4d4c7b3e-6a4f-4d7c-9f0a-2b7cb1e7f1a3",
            email: "alice@example.com",
            idp: "Okta",
            requested: { domain: "example.com", email: null },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "4d4c7b3e-6a4f-4d7c-9f0a-2b7cb1e7f1a3",
      name: null,
      email: "alice@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "osu",
    factory: Osu,
    docs: { url: "https://osu.ppy.sh/docs/index.html#authorization-code-grant", read: READ },
    verifies: "client in the token body; /api/v2/me with a numeric id",
    server: {
      authorization: "https://osu.ppy.sh/oauth/authorize",
      token: {
        url: "https://osu.ppy.sh/oauth/token",
        auth: "post",
        response: (access_token) => ({
          token_type: "Bearer",
          expires_in: 86400,
          access_token,
          refresh_token: "r",
        }),
      },
      api: [
        {
          url: "https://osu.ppy.sh/api/v2/me",
          response: {
            avatar_url: "https://a.ppy.sh/2?1657169614.jpeg",
            country_code: "AU",
            default_group: "default",
            id: 2,
            is_active: true,
            is_bot: false,
            is_deleted: false,
            is_online: false,
            is_supporter: true,
            last_visit: null,
            pm_friends_only: false,
            profile_colour: "#3366FF",
            username: "peppy",
            playmode: "osu",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "2",
      name: "peppy",
      email: null,
      image: "https://a.ppy.sh/2?1657169614.jpeg",
    },
  },
]
