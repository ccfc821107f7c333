export { default } from "@latch/core/providers/passkey"
export * from "@latch/core/providers/passkey"
