export { default } from "@latch/core/providers/slack"
export type * from "@latch/core/providers/slack"
