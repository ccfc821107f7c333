export { default } from "@latch/core/providers/credentials"
export type * from "@latch/core/providers/credentials"
