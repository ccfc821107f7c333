/** Every case of the catalogue. */
import type { CatalogueCase } from "./run.js"
import { cases as examples } from "./examples.js"

export const allCases: CatalogueCase[] = [...examples]
