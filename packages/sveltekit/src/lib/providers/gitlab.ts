export * from "@latch/core/providers/gitlab"
export { default } from "@latch/core/providers/gitlab"
