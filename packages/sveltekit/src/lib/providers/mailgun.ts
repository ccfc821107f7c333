export * from "@latch/core/providers/mailgun"
export { default } from "@latch/core/providers/mailgun"
