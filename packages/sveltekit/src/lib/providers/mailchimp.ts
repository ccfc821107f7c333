export * from "@latch/core/providers/mailchimp"
export { default } from "@latch/core/providers/mailchimp"
