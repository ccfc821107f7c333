export { default } from "@latch/core/providers/github"
export type * from "@latch/core/providers/github"
