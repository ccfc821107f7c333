export * from "@latch/core/providers/passkey"
export { default } from "@latch/core/providers/passkey"
