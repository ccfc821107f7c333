export { default } from "@latch/core/providers/apple"
export type * from "@latch/core/providers/apple"
