export * from "@latch/core/providers/bungie"
export { default } from "@latch/core/providers/bungie"
