export * from "@latch/core/providers/figma"
export { default } from "@latch/core/providers/figma"
