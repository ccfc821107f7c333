export * from "@latch/core/providers/mattermost"
export { default } from "@latch/core/providers/mattermost"
