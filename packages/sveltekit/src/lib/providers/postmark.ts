export * from "@latch/core/providers/postmark"
export { default } from "@latch/core/providers/postmark"
