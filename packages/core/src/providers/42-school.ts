/**
 * Sign in with 42, the intranet of the 42 network of schools.
 *
 * @module providers/42-school
 */
import { oauthProvider } from "../lib/provider-shapes.js"

/** The user fields of the 42 API's user object. */
export interface UserData {
  /** The user's numeric id on the intranet. */
  id: number
  email: string
  /** The login, e.g. `norminet`. */
  login: string
  first_name: string
  last_name: string
  /** The full name the user chose to show, if any. */
  usual_full_name: string | null
  usual_first_name: string | null
  /** The API URL of the user. */
  url: string
  phone: string | null
  /** The name the intranet shows. */
  displayname: string
  kind?: string
  image: Image
  "staff?"?: boolean
  correction_point: number
  pool_month: string | null
  pool_year: string | null
  location: string | null
  wallet: number
  anonymize_date: string | null
  created_at: string
  updated_at: string | null
  alumni?: boolean
  "active?"?: boolean
  [field: string]: unknown
}

/** A profile picture, with its resized versions. */
export interface Image {
  link: string | null
  versions: {
    large: string | null
    medium: string | null
    small: string | null
    micro: string | null
  }
}

/** A cursus the user follows. */
export interface CursusUser {
  id: number
  cursus_id: number
  grade: string | null
  level: number
  skills: { id: number; name: string; level: number }[]
  begin_at: string | null
  end_at: string | null
  blackholed_at: string | null
  has_coalition: boolean
  cursus: { id: number; name: string; slug: string; kind?: string; created_at: string }
  [field: string]: unknown
}

/** A project the user registered to. */
export interface ProjectUser {
  id: number
  occurrence: number
  final_mark: number | null
  status: string
  "validated?": boolean | null
  current_team_id: number | null
  project: { id: number; name: string; slug: string; parent_id: number | null }
  cursus_ids: number[]
  marked_at: string | null
  marked: boolean
  retriable_at: string | null
  created_at: string
  updated_at: string | null
  [field: string]: unknown
}

/** An achievement the user unlocked. */
export interface Achievement {
  id: number
  name: string
  description: string
  tier: string
  kind: string
  visible: boolean
  image: string | null
  nbr_of_success: number | null
  users_url: string
}

/** A language the user speaks. */
export interface LanguagesUser {
  id: number
  language_id: number
  user_id: number
  position: number
  created_at: string
}

/** A title the user holds. */
export interface TitlesUser {
  id: number
  user_id: number
  title_id: number
  selected: boolean
  created_at: string
  updated_at: string | null
}

/** An expertise the user declared. */
export interface ExpertisesUser {
  id: number
  expertise_id: number
  user_id: number
  interested: boolean
  value: number
  contact_me: boolean
  created_at: string
}

/** A campus. */
export interface Campus {
  id: number
  name: string
  time_zone: string
  language: { id: number; name: string; identifier: string }
  users_count: number
  country: string
  city: string
  website: string
  active: boolean
  [field: string]: unknown
}

/** The user's membership of a campus. */
export interface CampusUser {
  id: number
  user_id: number
  campus_id: number
  is_primary: boolean
  created_at: string
  updated_at: string | null
}

/**
 * The signed-in user, as `GET /v2/me` returns it.
 *
 * @see https://api.intra.42.fr/apidoc/2.0/users/me.html
 */
export interface FortyTwoProfile extends UserData {
  groups: { id: number; name: string }[]
  cursus_users: CursusUser[]
  projects_users: ProjectUser[]
  languages_users: LanguagesUser[]
  achievements: Achievement[]
  titles: { id: number; name: string }[]
  titles_users: TitlesUser[]
  expertises_users: ExpertisesUser[]
  campus: Campus[]
  campus_users: CampusUser[]
  [field: string]: unknown
}

/**
 * Adds 42 sign-in.
 *
 * Register an application on the intranet (Settings → API → Register a new app) with the redirect
 * URI `https://example.com/auth/callback/42-school`, then set:
 *
 * - `AUTH_42_SCHOOL_ID`: the application's UID
 * - `AUTH_42_SCHOOL_SECRET`: the application's secret
 *
 * The authorization asks for the `public` scope; the token request sends the id and secret in
 * its body, as the API's guide shows; the profile is `GET /v2/me`. The name is the one the user
 * chose (`usual_full_name`), else the intranet's `displayname`.
 *
 * @example
 * ```ts
 * import FortyTwo from "@latch/core/providers/42-school"
 *
 * export const config = { providers: [FortyTwo] }
 * ```
 */
const FortyTwo = oauthProvider<FortyTwoProfile>({
  id: "42-school",
  name: "42 School",
  authorization: "https://api.intra.42.fr/oauth/authorize",
  params: { scope: "public" },
  token: "https://api.intra.42.fr/oauth/token",
  userinfo: "https://api.intra.42.fr/v2/me",
  client: { token_endpoint_auth_method: "client_secret_post" },
  profile: (profile) => ({
    id: String(profile.id),
    name: profile.usual_full_name ?? profile.displayname ?? null,
    email: profile.email ?? null,
    image: profile.image?.link ?? null,
  }),
  style: { brandColor: "#000000", text: "#ffffff" },
})

export default FortyTwo
