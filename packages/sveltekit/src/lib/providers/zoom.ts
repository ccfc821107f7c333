export { default } from "@latch/core/providers/zoom"
export type * from "@latch/core/providers/zoom"
