export { default } from "@latch/core/providers/facebook"
export type * from "@latch/core/providers/facebook"
