export * from "@latch/core/providers/sendgrid"
export { default } from "@latch/core/providers/sendgrid"
