export { default } from "@latch/core/providers/bitbucket"
export type * from "@latch/core/providers/bitbucket"
