/** Every case of the catalogue, one file per group of providers. */
import { cases as examples } from "./examples.js"
import { cases as existing } from "./existing.js"
import { cases as oauthA } from "./oauth-a.js"
import { cases as oauthB } from "./oauth-b.js"
import { cases as oauthC } from "./oauth-c.js"
import { cases as oidcA } from "./oidc-a.js"
import { cases as oidcB } from "./oidc-b.js"
import type { CatalogueCase } from "./run.js"

export const allCases: CatalogueCase[] = [
  ...examples,
  ...existing,
  ...oidcA,
  ...oidcB,
  ...oauthA,
  ...oauthB,
  ...oauthC,
]
