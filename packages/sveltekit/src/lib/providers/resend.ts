export * from "@latch/core/providers/resend"
export { default } from "@latch/core/providers/resend"
