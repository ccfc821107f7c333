export * from "@latch/core/providers/pipedrive"
export { default } from "@latch/core/providers/pipedrive"
