export * from "@latch/core/providers/eveonline"
export { default } from "@latch/core/providers/eveonline"
