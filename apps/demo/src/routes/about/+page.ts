// Prerendered at build time: proves a page with <SignIn/> builds with prerendering on.
export const prerender = true

// The header's session in the prerendered file is the one at build time (none): this flag tells
// the root layout to ask the server who is signed in once the page is in the browser.
export const load = () => ({ prerendered: true })
