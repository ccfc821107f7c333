export * from "@latch/core/providers/bitbucket"
export { default } from "@latch/core/providers/bitbucket"
