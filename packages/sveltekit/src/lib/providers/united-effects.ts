export * from "@latch/core/providers/united-effects"
export { default } from "@latch/core/providers/united-effects"
