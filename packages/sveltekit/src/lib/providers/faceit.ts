export * from "@latch/core/providers/faceit"
export { default } from "@latch/core/providers/faceit"
