export * from "@latch/core/providers/dribbble"
export { default } from "@latch/core/providers/dribbble"
