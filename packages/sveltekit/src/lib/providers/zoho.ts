export * from "@latch/core/providers/zoho"
export { default } from "@latch/core/providers/zoho"
