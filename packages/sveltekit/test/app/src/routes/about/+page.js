// Prerendered while the guard is in the hooks: the build must still pass, and the crawler's
// visits to the guarded links below must not be saved as redirects.
export const prerender = true
