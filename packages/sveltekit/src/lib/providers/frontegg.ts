export * from "@latch/core/providers/frontegg"
export { default } from "@latch/core/providers/frontegg"
