// Prerendered at build time: proves a page with <SignIn/> builds with prerendering on. The
// header's session is not in the file (there is no visitor at build time): `loadSession` leaves
// it unknown, and the live session asks the server once the page is in the browser.
export const prerender = true
