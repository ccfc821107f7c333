// Stands in for SvelteKit's `$env/dynamic/private`: tests write to `env`.
export const env: Record<string, string | undefined> = {
  AUTH_SECRET: "sveltekit-test-secret-long-enough-0123456789",
}
