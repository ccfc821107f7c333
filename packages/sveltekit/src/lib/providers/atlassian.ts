export { default } from "@latch/core/providers/atlassian"
export type * from "@latch/core/providers/atlassian"
