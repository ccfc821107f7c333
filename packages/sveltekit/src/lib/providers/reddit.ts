export { default } from "@latch/core/providers/reddit"
export type * from "@latch/core/providers/reddit"
