export { default } from "@latch/core/providers/google"
export type * from "@latch/core/providers/google"
