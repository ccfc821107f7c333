/// <reference types="@auth/sveltekit" />

// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
  namespace App {
    // interface Error {}
    // interface Locals {} (auth() comes from @auth/sveltekit)
    // interface PageData {} (session comes from @auth/sveltekit)
    // interface PageState {}
    // interface Platform {}
  }
}

export {}
