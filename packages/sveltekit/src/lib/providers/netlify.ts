export * from "@latch/core/providers/netlify"
export { default } from "@latch/core/providers/netlify"
