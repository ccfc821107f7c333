/** The catalogue's first cases: one plain OAuth provider and one OpenID provider. */
import Cognito from "../../../src/providers/cognito.js"
import Dropbox from "../../../src/providers/dropbox.js"
import type { CatalogueCase } from "./run.js"

export const cases: CatalogueCase[] = [
  {
    kind: "oauth",
    id: "dropbox",
    factory: Dropbox,
    docs: {
      url: "https://www.dropbox.com/developers/documentation/http/documentation",
      read: "2026-11-25",
    },
    verifies: "the profile is a POST to users/get_current_account; offline access is asked",
    server: {
      authorization: "https://www.dropbox.com/oauth2/authorize",
      pkce: true,
      token: {
        url: "https://api.dropboxapi.com/oauth2/token",
        auth: "basic",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          expires_in: 14400,
          refresh_token: "refresh",
          scope: "account_info.read",
          uid: "12345",
          account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        }),
      },
      api: [
        {
          url: "https://api.dropboxapi.com/2/users/get_current_account",
          method: "POST",
          response: {
            account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
            name: {
              given_name: "Franz",
              surname: "Ferdinand",
              familiar_name: "Franz",
              display_name: "Franz Ferdinand (Personal)",
              abbreviated_name: "FF",
            },
            email: "franz@dropbox.com",
            email_verified: true,
            disabled: false,
            locale: "en",
            profile_photo_url:
              "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
      name: "Franz Ferdinand (Personal)",
      email: "franz@dropbox.com",
      image:
        "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
    },
  },
  {
    kind: "oidc",
    id: "cognito",
    factory: Cognito,
    docs: {
      url: "https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html",
      read: "2026-11-25",
    },
    verifies: "issuer per user pool from AUTH_COGNITO_ISSUER; cognito:username claim",
    op: { path: "/us-east-1_AbCdEf123", claims: { "cognito:username": "alice-l" } },
    env: (op) => ({ AUTH_COGNITO_ISSUER: op.issuer }),
    expect: {
      providerAccountId: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    },
  },
]
