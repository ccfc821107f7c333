/// <reference types="@auth/sveltekit" />

// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
  namespace App {
    // interface Error {}
    // interface Locals {} (auth() comes from @auth/sveltekit)
    // interface PageData {}
    // interface PageState {}
    /** The bindings a Cloudflare-style platform hands each request (server.js here). */
    interface Platform {
      env: {
        AUTH_SECRET: string
        OIDC_ISSUER: string
        OIDC_CLIENT_ID: string
        OIDC_CLIENT_SECRET: string
        SMTP_PORT: string
      }
    }
  }
}

export {}
