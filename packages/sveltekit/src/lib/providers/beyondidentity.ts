export * from "@latch/core/providers/beyondidentity"
export { default } from "@latch/core/providers/beyondidentity"
