export * from "@latch/core/providers/mastodon"
export { default } from "@latch/core/providers/mastodon"
