export * from "@latch/core/providers/notion"
export { default } from "@latch/core/providers/notion"
