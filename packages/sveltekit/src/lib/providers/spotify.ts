export * from "@latch/core/providers/spotify"
export { default } from "@latch/core/providers/spotify"
