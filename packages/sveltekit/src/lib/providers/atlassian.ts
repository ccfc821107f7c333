export * from "@latch/core/providers/atlassian"
export { default } from "@latch/core/providers/atlassian"
