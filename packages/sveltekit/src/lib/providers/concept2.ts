export * from "@latch/core/providers/concept2"
export { default } from "@latch/core/providers/concept2"
