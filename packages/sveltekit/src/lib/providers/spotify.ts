export { default } from "@latch/core/providers/spotify"
export type * from "@latch/core/providers/spotify"
