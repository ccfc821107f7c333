export { default } from "@latch/core/providers/linkedin"
export type * from "@latch/core/providers/linkedin"
