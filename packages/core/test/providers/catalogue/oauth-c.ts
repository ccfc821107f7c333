/** Plain OAuth 2.0 providers, Patreon to Zoho. */
import Patreon from "../../../src/providers/patreon.js"
import Pinterest from "../../../src/providers/pinterest.js"
import Pipedrive from "../../../src/providers/pipedrive.js"
import Strava from "../../../src/providers/strava.js"
import Threads from "../../../src/providers/threads.js"
import TikTok from "../../../src/providers/tiktok.js"
import Todoist from "../../../src/providers/todoist.js"
import Trakt from "../../../src/providers/trakt.js"
import VK from "../../../src/providers/vk.js"
import Webex from "../../../src/providers/webex.js"
import WeChat from "../../../src/providers/wechat.js"
import Wikimedia from "../../../src/providers/wikimedia.js"
import WordPress from "../../../src/providers/wordpress.js"
import WorkOS from "../../../src/providers/workos.js"
import Yandex from "../../../src/providers/yandex.js"
import Zoho from "../../../src/providers/zoho.js"
import { CLIENT_ID } from "../../helpers/oauth-server.js"
import type { CatalogueCase } from "./run.js"

const read = "2026-11-25"

const workosProfile = {
  object: "profile",
  id: "prof_01DMC79VCBZ0NY2099737PSVF1",
  connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
  connection_type: "GoogleOAuth",
  organization_id: "org_01EHWNCE74X7JSDV0X3SZ3KJNY",
  email: "todd@example.com",
  first_name: "Todd",
  last_name: "Rundgren",
  idp_id: "103456789",
  raw_attributes: { picture: "https://lh3.googleusercontent.com/a/todd" },
}

export const cases: CatalogueCase[] = [
  {
    kind: "oauth",
    id: "patreon",
    factory: Patreon,
    docs: { url: "https://docs.patreon.com/#oauth", read },
    verifies: "secret in the body; API v2 identity with fields[user] asked for",
    server: {
      authorization: "https://www.patreon.com/oauth2/authorize",
      token: {
        url: "https://www.patreon.com/api/oauth2/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          refresh_token: "refresh",
          expires_in: 2678400,
          scope: "identity identity[email]",
          token_type: "Bearer",
        }),
      },
      api: [
        {
          url: "https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=email,full_name,image_url,vanity",
          response: {
            data: {
              id: "12345678",
              type: "user",
              attributes: {
                email: "corgi@example.com",
                full_name: "Corgi The Dev",
                image_url: "https://c8.patreon.com/2/200/12345678",
                vanity: "corgi",
              },
            },
            links: { self: "https://www.patreon.com/api/oauth2/v2/user/12345678" },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "12345678",
      name: "Corgi The Dev",
      email: "corgi@example.com",
      image: "https://c8.patreon.com/2/200/12345678",
    },
  },
  {
    kind: "oauth",
    id: "pinterest",
    factory: Pinterest,
    docs: {
      url: "https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/",
      read,
    },
    verifies: "HTTP Basic at the v5 token endpoint; the account stored under its username",
    server: {
      authorization: "https://www.pinterest.com/oauth/",
      token: {
        url: "https://api.pinterest.com/v5/oauth/token",
        auth: "basic",
        response: (access_token) => ({
          access_token,
          refresh_token: "refresh",
          response_type: "authorization_code",
          token_type: "bearer",
          expires_in: 2592000,
          refresh_token_expires_in: 31536000,
          scope: "user_accounts:read",
        }),
      },
      api: [
        {
          url: "https://api.pinterest.com/v5/user_account",
          response: {
            account_type: "PINNER",
            id: "549755885175",
            profile_image: "https://i.pinimg.com/280x280_RS/corgi.jpg",
            website_url: "https://corgi.example",
            username: "corgi",
            about: "",
            business_name: null,
            board_count: 3,
            pin_count: 12,
            follower_count: 4,
            following_count: 9,
            monthly_views: 100,
          },
        },
      ],
    },
    expect: {
      providerAccountId: "corgi",
      name: "corgi",
      email: null,
      image: "https://i.pinimg.com/280x280_RS/corgi.jpg",
    },
  },
  {
    kind: "oauth",
    id: "pipedrive",
    factory: Pipedrive,
    docs: { url: "https://developers.pipedrive.com/docs/api/v1/Oauth", read },
    verifies: "HTTP Basic; the profile at the api_domain the token response names",
    server: {
      authorization: "https://oauth.pipedrive.com/oauth/authorize",
      token: {
        url: "https://oauth.pipedrive.com/oauth/token",
        auth: "basic",
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          refresh_token: "refresh",
          scope: "base",
          expires_in: 3599,
          api_domain: "https://acme.pipedrive.com",
        }),
      },
      api: [
        {
          url: "https://acme.pipedrive.com/api/v1/users/me",
          response: {
            success: true,
            data: {
              id: 1234567,
              name: "Ada Pipe",
              email: "ada@acme.example",
              icon_url: "https://acme.pipedrive.com/icons/ada.png",
              is_you: true,
              company_id: 42,
              company_domain: "acme",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "1234567",
      name: "Ada Pipe",
      email: "ada@acme.example",
      image: "https://acme.pipedrive.com/icons/ada.png",
    },
  },
  {
    kind: "oauth",
    id: "strava",
    factory: Strava,
    docs: { url: "https://developers.strava.com/docs/authentication/", read },
    verifies: "secret in the body, no redirect_uri needed; a numeric athlete id stored as text",
    server: {
      authorization: "https://www.strava.com/oauth/authorize",
      token: {
        url: "https://www.strava.com/oauth/token",
        auth: "post",
        redirectUri: false,
        response: (access_token) => ({
          token_type: "Bearer",
          expires_at: 1568775134,
          expires_in: 21600,
          refresh_token: "refresh",
          access_token,
          athlete: { id: 134815, firstname: "Marianne", lastname: "Teutenberg" },
        }),
      },
      api: [
        {
          url: "https://www.strava.com/api/v3/athlete",
          response: {
            id: 134815,
            username: "marianne_t",
            resource_state: 3,
            firstname: "Marianne",
            lastname: "Teutenberg",
            city: "San Francisco",
            country: "US",
            sex: "F",
            premium: true,
            profile_medium:
              "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/medium.jpg",
            profile: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/large.jpg",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "134815",
      name: "Marianne Teutenberg",
      email: null,
      image: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/large.jpg",
    },
  },
  {
    kind: "oauth",
    id: "threads",
    factory: Threads,
    docs: {
      url: "https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions",
      read,
    },
    verifies: "token response without token_type; /me with the token in the access_token query",
    server: {
      authorization: "https://threads.net/oauth/authorize",
      token: {
        url: "https://graph.threads.net/oauth/access_token",
        auth: "post",
        response: (access_token) => ({ access_token, user_id: 1234567 }),
      },
      api: [
        {
          url: "https://graph.threads.net/v1.0/me?fields=id,username,name,threads_profile_picture_url",
          auth: { query: "access_token" },
          response: {
            id: "1234567",
            username: "threadsapitestuser",
            name: "Threads Tester",
            threads_profile_picture_url: "https://scontent.cdninstagram.com/threads/tester.jpg",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "1234567",
      name: "threadsapitestuser",
      email: null,
      image: "https://scontent.cdninstagram.com/threads/tester.jpg",
    },
  },
  {
    kind: "oauth",
    id: "tiktok",
    factory: TikTok,
    docs: { url: "https://developers.tiktok.com/doc/oauth-user-access-token-management", read },
    verifies: "client_key in the authorization and token requests; user.info fields; open_id",
    server: {
      authorization: "https://www.tiktok.com/v2/auth/authorize/",
      clientIdParam: "client_key",
      pkce: true,
      token: {
        url: "https://open.tiktokapis.com/v2/oauth/token/",
        auth: "post",
        idParam: "client_key",
        response: (access_token) => ({
          access_token,
          expires_in: 86400,
          open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
          refresh_expires_in: 31536000,
          refresh_token: "refresh",
          scope: "user.info.basic",
          token_type: "Bearer",
        }),
      },
      api: [
        {
          url: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_url,display_name",
          response: {
            data: {
              user: {
                open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
                union_id: "c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1",
                avatar_url:
                  "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/tiktoker.jpeg",
                display_name: "Tik Toker",
              },
            },
            error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
      name: "Tik Toker",
      email: null,
      image: "https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/tiktoker.jpeg",
    },
  },
  {
    kind: "oauth",
    id: "todoist",
    factory: Todoist,
    docs: { url: "https://developer.todoist.com/api/v1/#tag/Authorization", read },
    verifies: "secret in the body, no redirect_uri needed; the profile is API v1's /user",
    server: {
      authorization: "https://todoist.com/oauth/authorize",
      token: {
        url: "https://todoist.com/oauth/access_token",
        auth: "post",
        redirectUri: false,
        response: (access_token) => ({ access_token, token_type: "Bearer" }),
      },
      api: [
        {
          url: "https://api.todoist.com/api/v1/user",
          response: {
            id: "2671355",
            email: "alice@todoist.example",
            full_name: "Alice Todo",
            avatar_big: "https://dcff1xvirvpfp.cloudfront.net/alice_big.jpg",
            avatar_medium: "https://dcff1xvirvpfp.cloudfront.net/alice_medium.jpg",
            lang: "en",
            is_premium: true,
            inbox_project_id: "6Jf8VQXxpwv56VQ7",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "2671355",
      name: "Alice Todo",
      email: "alice@todoist.example",
      image: "https://dcff1xvirvpfp.cloudfront.net/alice_big.jpg",
    },
  },
  {
    kind: "oauth",
    id: "trakt",
    factory: Trakt,
    docs: { url: "https://trakt.docs.apiary.io/#reference/authentication-oauth", read },
    verifies: "trakt-api-key (the client id) and trakt-api-version headers; ids.slug",
    server: {
      authorization: "https://trakt.tv/oauth/authorize",
      token: {
        url: "https://api.trakt.tv/oauth/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          expires_in: 7776000,
          refresh_token: "refresh",
          scope: "public",
          created_at: 1487889741,
        }),
      },
      api: [
        {
          url: "https://api.trakt.tv/users/me?extended=full",
          headers: { "trakt-api-key": CLIENT_ID, "trakt-api-version": "2" },
          response: {
            username: "sean",
            private: false,
            name: "Sean Rudford",
            vip: true,
            vip_ep: false,
            ids: { slug: "sean" },
            joined_at: "2010-09-25T17:49:25.000Z",
            location: "SF",
            about: "I have all your cassette tapes.",
            gender: "male",
            age: 35,
            images: {
              avatar: {
                full: "https://walter.trakt.tv/images/users/000/000/001/avatars/large/sean.jpg",
              },
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "sean",
      name: "Sean Rudford",
      email: null,
      image: "https://walter.trakt.tv/images/users/000/000/001/avatars/large/sean.jpg",
    },
  },
  {
    kind: "oauth",
    id: "vk",
    factory: VK,
    docs: { url: "https://dev.vk.com/en/api/access-token/authcode-flow-user", read },
    verifies: "token without token_type, email in it; users.get with the token in the query",
    server: {
      authorization: "https://oauth.vk.com/authorize",
      token: {
        url: "https://oauth.vk.com/access_token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          expires_in: 86399,
          user_id: 210700286,
          email: "lindsey@vk.example",
        }),
      },
      api: [
        {
          url: "https://api.vk.com/method/users.get?fields=photo_100&v=5.131",
          auth: { query: "access_token" },
          response: {
            response: [
              {
                id: 210700286,
                first_name: "Lindsey",
                last_name: "Stirling",
                can_access_closed: true,
                is_closed: false,
                photo_100: "https://sun1-99.userapi.com/lindsey_100.jpg",
              },
            ],
          },
        },
      ],
    },
    expect: {
      providerAccountId: "210700286",
      name: "Lindsey Stirling",
      email: "lindsey@vk.example",
      image: "https://sun1-99.userapi.com/lindsey_100.jpg",
    },
  },
  {
    kind: "oauth",
    id: "webex",
    factory: Webex,
    docs: { url: "https://developer.webex.com/docs/integrations", read },
    verifies: "secret in the body; people/me's first email",
    server: {
      authorization: "https://webexapis.com/v1/authorize",
      token: {
        url: "https://webexapis.com/v1/access_token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          expires_in: 1209600,
          refresh_token: "refresh",
          refresh_token_expires_in: 7776000,
          token_type: "Bearer",
        }),
      },
      api: [
        {
          url: "https://webexapis.com/v1/people/me",
          response: {
            id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
            emails: ["john.andersen@example.com"],
            displayName: "John Andersen",
            nickName: "John",
            firstName: "John",
            lastName: "Andersen",
            avatar: "https://avatar-prod-us-east-2.webexcontent.com/john~1600",
            orgId:
              "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi85NmFiYzJhYS0zZGNjLTExZTUtYTE1Mi1mZTM0ODE5Y2RjOWE",
            type: "person",
          },
        },
      ],
    },
    expect: {
      providerAccountId:
        "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
      name: "John Andersen",
      email: "john.andersen@example.com",
      image: "https://avatar-prod-us-east-2.webexcontent.com/john~1600",
    },
  },
  {
    kind: "oauth",
    id: "wechat",
    factory: WeChat,
    docs: {
      url: "https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html",
      read,
    },
    verifies: "appid in the authorization; a GET token request with appid/secret; unionid",
    server: {
      authorization: "https://open.weixin.qq.com/connect/oauth2/authorize",
      clientIdParam: "appid",
      token: {
        url: "https://api.weixin.qq.com/sns/oauth2/access_token",
        method: "GET",
        auth: "post",
        idParam: "appid",
        secretParam: "secret",
        redirectUri: false,
        response: (access_token) => ({
          access_token,
          expires_in: 7200,
          refresh_token: "refresh",
          openid: "oLVPpjqs2BhvzwPj5A-vTYAX3GLc",
          scope: "snsapi_userinfo",
          unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
        }),
      },
      api: [
        {
          url: "https://api.weixin.qq.com/sns/userinfo?openid=oLVPpjqs2BhvzwPj5A-vTYAX3GLc",
          auth: { query: "access_token" },
          response: {
            openid: "oLVPpjqs2BhvzwPj5A-vTYAX3GLc",
            nickname: "Wei",
            sex: 1,
            province: "Guangdong",
            city: "Shenzhen",
            country: "CN",
            headimgurl:
              "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/0",
            privilege: [],
            unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
      name: "Wei",
      email: null,
      image:
        "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/0",
    },
  },
  {
    kind: "oauth",
    id: "wikimedia",
    factory: Wikimedia,
    docs: { url: "https://www.mediawiki.org/wiki/OAuth/For_Developers", read },
    verifies: "secret in the body, PKCE; the profile's sub, the global user id",
    server: {
      authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
      pkce: true,
      token: {
        url: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
        auth: "post",
        response: (access_token) => ({
          token_type: "Bearer",
          expires_in: 14400,
          access_token,
          refresh_token: "refresh",
        }),
      },
      api: [
        {
          url: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
          response: {
            sub: "51233720",
            username: "Alice Liddell",
            editcount: 1204,
            confirmed_email: true,
            blocked: false,
            registered: "20150311123456",
            groups: ["*", "user", "autoconfirmed"],
            rights: ["read", "edit", "createpage"],
            grants: ["basic", "mwoauth-authonlyprivate"],
            realname: "Alice L.",
            email: "alice@wiki.example",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "51233720",
      name: "Alice Liddell",
      email: "alice@wiki.example",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "wordpress",
    factory: WordPress,
    docs: { url: "https://developer.wordpress.com/docs/oauth2/", read },
    verifies: "secret in the body; rest/v1/me's numeric ID stored as text",
    server: {
      authorization: "https://public-api.wordpress.com/oauth2/authorize",
      token: {
        url: "https://public-api.wordpress.com/oauth2/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          blog_id: "0",
          blog_url: null,
          token_type: "bearer",
          scope: "auth",
        }),
      },
      api: [
        {
          url: "https://public-api.wordpress.com/rest/v1/me",
          response: {
            ID: 12345678,
            display_name: "Alice WP",
            username: "alicewp",
            email: "alice@wp.example",
            primary_blog: 87654321,
            language: "en",
            avatar_URL:
              "https://0.gravatar.com/avatar/5f4dcc3b5aa765d61d8327deb882cf99?s=96&d=identicon",
            profile_URL: "https://gravatar.com/alicewp",
            verified: true,
            email_verified: true,
          },
        },
      ],
    },
    expect: {
      providerAccountId: "12345678",
      name: "Alice WP",
      email: "alice@wp.example",
      image: "https://0.gravatar.com/avatar/5f4dcc3b5aa765d61d8327deb882cf99?s=96&d=identicon",
    },
  },
  {
    kind: "oauth",
    id: "workos",
    factory: WorkOS,
    options: { connection: "conn_01E4ZCR3C56J083X43JQXF3JK5" },
    docs: { url: "https://workos.com/docs/reference/sso/get-authorization-url", read },
    verifies: "connection kept; the profile from the token response, checked against it",
    server: {
      authorization: "https://api.workos.com/sso/authorize",
      token: {
        url: "https://api.workos.com/sso/token",
        auth: "post",
        redirectUri: false,
        response: (access_token) => ({ access_token, profile: workosProfile }),
      },
      api: [{ url: "https://api.workos.com/sso/profile", response: workosProfile }],
    },
    expect: {
      providerAccountId: "prof_01DMC79VCBZ0NY2099737PSVF1",
      name: "Todd Rundgren",
      email: "todd@example.com",
      image: "https://lh3.googleusercontent.com/a/todd",
    },
  },
  {
    kind: "oauth",
    id: "yandex",
    factory: Yandex,
    docs: { url: "https://yandex.com/dev/id/doc/en/codes/code-url", read },
    verifies: "HTTP Basic, PKCE; login.yandex.ru/info with Authorization: OAuth; avatar URL",
    server: {
      authorization: "https://oauth.yandex.ru/authorize",
      pkce: true,
      token: {
        url: "https://oauth.yandex.ru/token",
        auth: "basic",
        redirectUri: false,
        response: (access_token) => ({
          token_type: "bearer",
          access_token,
          expires_in: 124234123534,
          refresh_token: "refresh",
          scope: "login:info login:email login:avatar",
        }),
      },
      api: [
        {
          url: "https://login.yandex.ru/info?format=json",
          auth: { scheme: "OAuth" },
          response: {
            id: "1000034426",
            login: "ivan",
            client_id: "4760187d81bc4b7799476b42b5103713",
            display_name: "Ivan",
            real_name: "Ivan Ivanov",
            first_name: "Ivan",
            last_name: "Ivanov",
            sex: "male",
            default_email: "test@yandex.ru",
            emails: ["test@yandex.ru", "other-test@yandex.ru"],
            default_avatar_id: "131652443",
            is_avatar_empty: false,
            psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "1000034426",
      name: "Ivan",
      email: "test@yandex.ru",
      image: "https://avatars.yandex.net/get-yapic/131652443/islands-200",
    },
  },
  {
    kind: "oauth",
    id: "zoho",
    factory: Zoho,
    env: { AUTH_ZOHO_ISSUER: "https://accounts.zoho.eu" },
    docs: { url: "https://www.zoho.com/accounts/protocol/oauth/multi-dc.html", read },
    verifies: "the EU data centre from AUTH_ZOHO_ISSUER; user/info with Zoho-oauthtoken; ZUID",
    server: {
      authorization: "https://accounts.zoho.eu/oauth/v2/auth",
      token: {
        url: "https://accounts.zoho.eu/oauth/v2/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          api_domain: "https://www.zohoapis.eu",
          token_type: "Bearer",
          expires_in: 3600,
        }),
      },
      api: [
        {
          url: "https://accounts.zoho.eu/oauth/user/info",
          auth: { scheme: "Zoho-oauthtoken" },
          response: {
            First_Name: "Alice",
            Email: "alice@zylker.example",
            Last_Name: "Zylker",
            Display_Name: "alice.zylker",
            ZUID: 20071234567,
          },
        },
      ],
    },
    expect: {
      providerAccountId: "20071234567",
      name: "Alice Zylker",
      email: "alice@zylker.example",
      image: null,
    },
  },
]
