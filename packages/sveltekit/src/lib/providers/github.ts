export * from "@latch/core/providers/github"
export { default } from "@latch/core/providers/github"
