/**
 * Plain OAuth 2.0 providers, first group (42 School to FreshBooks): each against the
 * configurable server, with its documented client authentication, token answer and profile API.
 */
import FortyTwo from "../../../src/providers/42-school.js"
import AzureDevOps from "../../../src/providers/azure-devops.js"
import Box from "../../../src/providers/box.js"
import BoxyHQSAML from "../../../src/providers/boxyhq-saml.js"
import Bungie from "../../../src/providers/bungie.js"
import ClickUp from "../../../src/providers/click-up.js"
import Coinbase from "../../../src/providers/coinbase.js"
import Concept2 from "../../../src/providers/concept2.js"
import Dribbble from "../../../src/providers/dribbble.js"
import Eventbrite from "../../../src/providers/eventbrite.js"
import EVEOnline from "../../../src/providers/eveonline.js"
import FACEIT from "../../../src/providers/faceit.js"
import Figma from "../../../src/providers/figma.js"
import Foursquare from "../../../src/providers/foursquare.js"
import Freshbooks from "../../../src/providers/freshbooks.js"
import type { CatalogueCase } from "./run.js"

const READ = "2026-11-25"

export const cases: CatalogueCase[] = [
  {
    kind: "oauth",
    id: "azure-devops",
    factory: AzureDevOps,
    docs: {
      url: "https://learn.microsoft.com/en-us/azure/devops/integrate/get-started/authentication/oauth",
      read: READ,
    },
    verifies: "JWT bearer token request; jwt-bearer token type and string expires_in; avatar",
    server: {
      authorization: "https://app.vssps.visualstudio.com/oauth2/authorize",
      responseType: "Assertion",
      token: {
        url: "https://app.vssps.visualstudio.com/oauth2/token",
        auth: "assertion",
        response: (access_token) => ({
          access_token,
          token_type: "jwt-bearer",
          expires_in: "3599",
          refresh_token: "azure-devops-refresh",
          scope: "vso.profile",
        }),
      },
      api: [
        {
          url: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0",
          response: {
            displayName: "Jamal Hartnett",
            publicAlias: "9a6a7bd1-3c3f-4bb6-a6a6-0a6d0f0e4e7a",
            emailAddress: "fabrikamfiber4@hotmail.com",
            coreRevision: 1,
            timeStamp: "2025-01-01T00:00:00.000Z",
            id: "9a6a7bd1-3c3f-4bb6-a6a6-0a6d0f0e4e7a",
            revision: 1,
            coreAttributes: {
              Avatar: {
                descriptor: { attributeName: "Avatar", containerName: "Core" },
                value: { $type: "System.Byte[]", $value: "iVBORw0KGgo=" },
              },
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "9a6a7bd1-3c3f-4bb6-a6a6-0a6d0f0e4e7a",
      name: "Jamal Hartnett",
      email: "fabrikamfiber4@hotmail.com",
      image: "data:image/jpeg;base64,iVBORw0KGgo=",
    },
  },
  {
    kind: "oauth",
    id: "42-school",
    factory: FortyTwo,
    docs: { url: "https://api.intra.42.fr/apidoc/guides/web_application_flow", read: READ },
    verifies: "scope public; id and secret in the token request body; GET /v2/me; image.link",
    server: {
      authorization: "https://api.intra.42.fr/oauth/authorize",
      token: {
        url: "https://api.intra.42.fr/oauth/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          expires_in: 7200,
          refresh_token: "42-refresh",
          scope: "public",
          created_at: 1764028800,
          secret_valid_until: 1766620800,
        }),
      },
      api: [
        {
          url: "https://api.intra.42.fr/v2/me",
          response: {
            id: 2,
            email: "andre@42.fr",
            login: "andre",
            first_name: "André",
            last_name: "Aubin",
            usual_full_name: "Juliette Aubin",
            usual_first_name: "Juliette",
            url: "https://api.intra.42.fr/v2/users/andre",
            phone: null,
            displayname: "André Aubin",
            kind: "admin",
            image: {
              link: "https://cdn.intra.42.fr/users/1234567890/andre.jpg",
              versions: {
                large: "https://cdn.intra.42.fr/users/1234567890/large_andre.jpg",
                medium: "https://cdn.intra.42.fr/users/1234567890/medium_andre.jpg",
                small: "https://cdn.intra.42.fr/users/1234567890/small_andre.jpg",
                micro: "https://cdn.intra.42.fr/users/1234567890/micro_andre.jpg",
              },
            },
            "staff?": false,
            correction_point: 4,
            pool_month: "july",
            pool_year: "2016",
            location: null,
            wallet: 0,
            anonymize_date: "2021-02-20T00:00:00.000+03:00",
            created_at: "2017-11-22T13:41:00.750Z",
            updated_at: "2017-11-22T13:41:26.243Z",
            alumni: false,
            "active?": true,
            groups: [],
            cursus_users: [],
            projects_users: [],
            languages_users: [],
            achievements: [],
            titles: [],
            titles_users: [],
            expertises_users: [],
            campus: [],
            campus_users: [],
          },
        },
      ],
    },
    expect: {
      providerAccountId: "2",
      name: "Juliette Aubin",
      email: "andre@42.fr",
      image: "https://cdn.intra.42.fr/users/1234567890/andre.jpg",
    },
  },
  {
    kind: "oauth",
    id: "box",
    factory: Box,
    docs: { url: "https://developer.box.com/reference/post-oauth2-token/", read: READ },
    verifies: "id and secret in the token request body; GET /2.0/users/me; login as the email",
    server: {
      authorization: "https://account.box.com/api/oauth2/authorize",
      token: {
        url: "https://api.box.com/oauth2/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          expires_in: 3600,
          token_type: "bearer",
          restricted_to: [],
          refresh_token: "box-refresh",
          issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        }),
      },
      api: [
        {
          url: "https://api.box.com/2.0/users/me",
          response: {
            id: "11446498",
            type: "user",
            address: "900 Jefferson Ave, Redwood City, CA 94063",
            avatar_url: "https://www.box.com/api/avatar/large/181216415",
            created_at: "2012-12-12T10:53:43-08:00",
            job_title: "CEO",
            language: "en",
            login: "ceo@example.com",
            max_upload_size: 2147483648,
            modified_at: "2012-12-12T10:53:43-08:00",
            name: "Aaron Levie",
            phone: "6509241374",
            space_amount: 11345156112,
            space_used: 1237009912,
            status: "active",
            timezone: "Africa/Bujumbura",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "11446498",
      name: "Aaron Levie",
      email: "ceo@example.com",
      image: "https://www.box.com/api/avatar/large/181216415",
    },
  },
  {
    kind: "oauth",
    id: "boxyhq-saml",
    factory: BoxyHQSAML,
    docs: { url: "https://boxyhq.com/docs/jackson/sso-flow", read: READ },
    verifies:
      "endpoints under AUTH_BOXYHQ_SAML_ISSUER with provider=saml; id and secret in the body; PKCE",
    env: { AUTH_BOXYHQ_SAML_ISSUER: "https://jackson.example.com/" },
    server: {
      authorization: "https://jackson.example.com/api/oauth/authorize",
      pkce: true,
      token: {
        url: "https://jackson.example.com/api/oauth/token",
        auth: "post",
        response: (access_token) => ({ access_token, token_type: "bearer", expires_in: 300 }),
      },
      api: [
        {
          url: "https://jackson.example.com/api/oauth/userinfo",
          response: {
            id: "9c3f4b7e2a1d",
            email: "jackson@example.com",
            firstName: "SAML",
            lastName: "Jackson",
            roles: ["admin"],
            groups: [],
            requested: { tenant: "example.com", product: "demo" },
            raw: {},
          },
        },
      ],
    },
    expect: {
      providerAccountId: "9c3f4b7e2a1d",
      name: "SAML Jackson",
      email: "jackson@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "bungie",
    factory: Bungie,
    docs: { url: "https://github.com/Bungie-net/api/wiki/OAuth-Documentation", read: READ },
    verifies:
      "HTTP Basic, no redirect_uri needed; X-API-Key on GetMembershipsForCurrentUser; bungieNetUser",
    options: { headers: { "X-API-Key": "6747e6eaab87471cb98620895e554c69" } },
    server: {
      authorization: "https://www.bungie.net/en/OAuth/Authorize",
      token: {
        url: "https://www.bungie.net/platform/app/oauth/token/",
        auth: "basic",
        redirectUri: false,
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          expires_in: 3600,
          refresh_token: "bungie-refresh",
          refresh_expires_in: 7776000,
          membership_id: "14215723",
        }),
      },
      api: [
        {
          url: "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/",
          headers: { "X-API-Key": "6747e6eaab87471cb98620895e554c69" },
          response: {
            Response: {
              destinyMemberships: [],
              bungieNetUser: {
                membershipId: "14215723",
                uniqueName: "Guardian#0042",
                displayName: "Guardian",
                profilePicturePath: "/img/profile/avatars/default_avatar.gif",
                locale: "en",
              },
            },
            ErrorCode: 1,
            ThrottleSeconds: 0,
            ErrorStatus: "Success",
            Message: "Ok",
            MessageData: {},
          },
        },
      ],
    },
    expect: {
      providerAccountId: "14215723",
      name: "Guardian",
      email: null,
      image: "https://www.bungie.net/img/profile/avatars/default_avatar.gif",
    },
  },
  {
    kind: "oauth",
    id: "click-up",
    factory: ClickUp,
    docs: { url: "https://developer.clickup.com/docs/authentication", read: READ },
    verifies: "state only; token answer { access_token } alone; GET /api/v2/user",
    server: {
      authorization: "https://app.clickup.com/api",
      token: {
        url: "https://api.clickup.com/api/v2/oauth/token",
        auth: "post",
        redirectUri: false,
        response: (access_token) => ({ access_token }),
      },
      api: [
        {
          url: "https://api.clickup.com/api/v2/user",
          response: {
            user: {
              id: 123,
              username: "John Doe",
              email: "johndoe@gmail.com",
              color: "#000000",
              profilePicture: "https://attachments-public.clickup.com/profilePictures/123_abc.jpg",
              initials: "JD",
              week_start_day: 0,
              global_font_support: false,
              timezone: "America/New_York",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "123",
      name: "John Doe",
      email: "johndoe@gmail.com",
      image: "https://attachments-public.clickup.com/profilePictures/123_abc.jpg",
    },
  },
  {
    kind: "oauth",
    id: "coinbase",
    factory: Coinbase,
    docs: {
      url: "https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/reference",
      read: READ,
    },
    verifies: "id and secret in the token request body; PKCE; GET /v2/user (inside data)",
    server: {
      authorization: "https://login.coinbase.com/oauth2/auth",
      pkce: true,
      token: {
        url: "https://login.coinbase.com/oauth2/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          expires_in: 7200,
          refresh_token: "coinbase-refresh",
          scope: "wallet:user:read wallet:user:email",
        }),
      },
      api: [
        {
          url: "https://api.coinbase.com/v2/user",
          response: {
            data: {
              id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
              name: "User One",
              username: "user1",
              profile_location: null,
              profile_bio: null,
              profile_url: "https://coinbase.com/user1",
              avatar_url:
                "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
              resource: "user",
              resource_path: "/v2/user",
              email: "user1@example.com",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
      name: "User One",
      email: "user1@example.com",
      image:
        "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
    },
  },
  {
    kind: "oauth",
    id: "concept2",
    factory: Concept2,
    docs: { url: "https://log.concept2.com/developers/documentation/", read: READ },
    verifies: "id and secret in the body; GET /api/users/me with the v1 Accept header; data.id",
    server: {
      authorization: "https://log.concept2.com/oauth/authorize",
      token: {
        url: "https://log.concept2.com/oauth/access_token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          expires_in: 604800,
          refresh_token: "concept2-refresh",
        }),
      },
      api: [
        {
          url: "https://log.concept2.com/api/users/me",
          headers: { accept: "application/vnd.c2logbook.v1+json" },
          response: {
            data: {
              id: 1,
              username: "jsmith",
              first_name: "John",
              last_name: "Smith",
              gender: "M",
              dob: "1970-01-01",
              email: "jsmith@example.com",
              country: "USA",
              profile_image: "https://log.concept2.com/profile/1/image.jpg",
              age_restricted: false,
              email_permission: null,
              max_heart_rate: null,
              weight: 7500,
              logbook_privacy: "partners",
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "1",
      name: "jsmith",
      email: "jsmith@example.com",
      image: "https://log.concept2.com/profile/1/image.jpg",
    },
  },
  {
    kind: "oauth",
    id: "dribbble",
    factory: Dribbble,
    docs: { url: "https://developer.dribbble.com/v2/oauth/", read: READ },
    verifies: "id and secret as token request parameters; non-expiring token; GET /v2/user",
    server: {
      authorization: "https://dribbble.com/oauth/authorize",
      token: {
        url: "https://dribbble.com/oauth/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          scope: "public",
          created_at: 1764028800,
        }),
      },
      api: [
        {
          url: "https://api.dribbble.com/v2/user",
          response: {
            id: 1,
            name: "Dan Cederholm",
            login: "simplebits",
            html_url: "https://dribbble.com/simplebits",
            avatar_url: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243",
            bio: 'Co-founder &amp; designer of <a href="https://dribbble.com/dribbble">@Dribbble</a>.',
            location: "Salem, MA",
            links: { web: "http://simplebits.com", twitter: "https://twitter.com/simplebits" },
            can_upload_shot: true,
            pro: true,
            followers_count: 29262,
            created_at: "2009-07-08T02:51:22Z",
            type: "Player",
            teams: [],
          },
        },
      ],
    },
    expect: {
      providerAccountId: "1",
      name: "Dan Cederholm",
      email: null,
      image: "https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243",
    },
  },
  {
    kind: "oauth",
    id: "eventbrite",
    factory: Eventbrite,
    docs: { url: "https://www.eventbrite.com/platform/docs/authentication", read: READ },
    verifies: "key and secret in the token request body; GET /v3/users/me/; primary email",
    server: {
      authorization: "https://www.eventbrite.com/oauth/authorize",
      token: {
        url: "https://www.eventbrite.com/oauth/token",
        auth: "post",
        response: (access_token) => ({ access_token, token_type: "bearer" }),
      },
      api: [
        {
          url: "https://www.eventbriteapi.com/v3/users/me/",
          response: {
            emails: [
              { email: "old@example.com", verified: false, primary: false },
              { email: "john@example.com", verified: true, primary: true },
            ],
            id: "1234567890",
            name: "John Smith",
            first_name: "John",
            last_name: "Smith",
            is_public: false,
            image_id: null,
          },
        },
      ],
    },
    expect: {
      providerAccountId: "1234567890",
      name: "John Smith",
      email: "john@example.com",
      image: null,
    },
  },
  {
    kind: "oauth",
    id: "eveonline",
    factory: EVEOnline,
    docs: { url: "https://developers.eveonline.com/docs/services/sso/", read: READ },
    verifies: "state only; HTTP Basic, no redirect_uri needed; GET /oauth/verify; CharacterID",
    server: {
      authorization: "https://login.eveonline.com/v2/oauth/authorize",
      token: {
        url: "https://login.eveonline.com/v2/oauth/token",
        auth: "basic",
        redirectUri: false,
        response: (access_token) => ({
          access_token,
          expires_in: 1199,
          token_type: "Bearer",
          refresh_token: "eve-refresh",
        }),
      },
      api: [
        {
          url: "https://login.eveonline.com/oauth/verify",
          response: {
            CharacterID: 95465499,
            CharacterName: "CCP Bartender",
            ExpiresOn: "2026-11-25T12:20:00",
            Scopes: "publicData",
            TokenType: "Character",
            CharacterOwnerHash: "lots_of_letters_and_numbers",
            IntellectualProperty: "EVE",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "95465499",
      name: "CCP Bartender",
      email: null,
      image: "https://images.evetech.net/characters/95465499/portrait?size=128",
    },
  },
  {
    kind: "oauth",
    id: "faceit",
    factory: FACEIT,
    docs: { url: "https://cdn.faceit.com/third_party/docs/FACEIT_Connect_3.0.pdf", read: READ },
    verifies: "redirect_popup authorization page; HTTP Basic; userinfo guid and nickname",
    server: {
      authorization: "https://accounts.faceit.com/accounts",
      token: {
        url: "https://api.faceit.com/auth/v1/oauth/token",
        auth: "basic",
        response: (access_token) => ({
          access_token,
          token_type: "bearer",
          expires_in: 3600,
          refresh_token: "faceit-refresh",
          scope: "openid email profile",
          id_token: "eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl",
        }),
      },
      api: [
        {
          url: "https://api.faceit.com/auth/v1/resources/userinfo",
          response: {
            guid: "3b9f3c2a-6a8e-4f8a-9b1e-2f6c1d0e5a77",
            nickname: "s1mple",
            email: "player@example.com",
            picture: "https://assets.faceit-cdn.net/avatars/3b9f3c2a.jpg",
            locale: "en",
            membership: "free",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "3b9f3c2a-6a8e-4f8a-9b1e-2f6c1d0e5a77",
      name: "s1mple",
      email: "player@example.com",
      image: "https://assets.faceit-cdn.net/avatars/3b9f3c2a.jpg",
    },
  },
  {
    kind: "oauth",
    id: "figma",
    factory: Figma,
    docs: { url: "https://developers.figma.com/docs/rest-api/authentication/", read: READ },
    verifies: "state only; HTTP Basic; token answer without token_type; GET /v1/me",
    server: {
      authorization: "https://www.figma.com/oauth",
      token: {
        url: "https://api.figma.com/v1/oauth/token",
        auth: "basic",
        response: (access_token) => ({
          user_id_string: "582954126780133",
          user_id: 582954126780133,
          access_token,
          refresh_token: "figma-refresh",
          expires_in: 7776000,
        }),
      },
      api: [
        {
          url: "https://api.figma.com/v1/me",
          response: {
            id: "582954126780133",
            handle: "Ada Designer",
            email: "ada@example.com",
            img_url: "https://s3-alpha.figma.com/profile/abc",
          },
        },
      ],
    },
    expect: {
      providerAccountId: "582954126780133",
      name: "Ada Designer",
      email: "ada@example.com",
      image: "https://s3-alpha.figma.com/profile/abc",
    },
  },
  {
    kind: "oauth",
    id: "foursquare",
    factory: Foursquare,
    docs: {
      url: "https://docs.foursquare.com/developer/reference/personalization-apis-authentication",
      read: READ,
    },
    verifies: "token answer { access_token } alone; users/self with oauth_token and v in the query",
    options: { apiVersion: "20240101" },
    server: {
      authorization: "https://foursquare.com/oauth2/authenticate",
      token: {
        url: "https://foursquare.com/oauth2/access_token",
        auth: "post",
        response: (access_token) => ({ access_token }),
      },
      api: [
        {
          url: "https://api.foursquare.com/v2/users/self?v=20240101",
          auth: { query: "oauth_token" },
          response: {
            meta: { code: 200, requestId: "5ac51d7e6a607143d811cecb" },
            response: {
              user: {
                id: "33",
                firstName: "Jimmy",
                lastName: "Foursquare",
                gender: "male",
                photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/33_jimmy.jpg" },
                contact: { email: "jimmy@example.com" },
                homeCity: "New York, NY",
              },
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "33",
      name: "Jimmy Foursquare",
      email: "jimmy@example.com",
      image: "https://fastly.4sqi.net/img/user/original/33_jimmy.jpg",
    },
  },
  {
    kind: "oauth",
    id: "freshbooks",
    factory: Freshbooks,
    docs: { url: "https://www.freshbooks.com/api/authentication", read: READ },
    verifies: "id and secret in the token request body; GET /auth/api/v1/users/me (response.id)",
    server: {
      authorization: "https://auth.freshbooks.com/oauth/authorize",
      token: {
        url: "https://api.freshbooks.com/auth/oauth/token",
        auth: "post",
        response: (access_token) => ({
          access_token,
          token_type: "Bearer",
          expires_in: 43200,
          refresh_token: "freshbooks-refresh",
          scope: "user:profile:read",
          created_at: 1764028800,
        }),
      },
      api: [
        {
          url: "https://api.freshbooks.com/auth/api/v1/users/me",
          response: {
            response: {
              id: 2192788,
              identity_id: 2192788,
              first_name: "Bruce",
              last_name: "Wayne",
              email: "bruce@example.com",
              confirmed_at: "2017-05-08T17:36:36Z",
              created_at: "2017-05-08T17:35:59Z",
              language: "en",
              business_memberships: [],
              roles: [],
            },
          },
        },
      ],
    },
    expect: {
      providerAccountId: "2192788",
      name: "Bruce Wayne",
      email: "bruce@example.com",
      image: null,
    },
  },
]
