import { navigation } from "$lib/content/all.js"

export const prerender = true

/** @type {import('./$types').LayoutServerLoad} */
export function load() {
  return { nav: navigation() }
}
