export * from "@latch/core/providers/trakt"
export { default } from "@latch/core/providers/trakt"
