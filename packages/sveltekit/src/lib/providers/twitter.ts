export { default } from "@latch/core/providers/twitter"
export type * from "@latch/core/providers/twitter"
