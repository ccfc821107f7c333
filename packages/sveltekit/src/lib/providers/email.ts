export { default } from "@latch/core/providers/email"
export type * from "@latch/core/providers/email"
