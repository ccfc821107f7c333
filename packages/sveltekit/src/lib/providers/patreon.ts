export * from "@latch/core/providers/patreon"
export { default } from "@latch/core/providers/patreon"
