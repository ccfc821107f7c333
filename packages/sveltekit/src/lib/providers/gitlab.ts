export { default } from "@latch/core/providers/gitlab"
export type * from "@latch/core/providers/gitlab"
