export * from "@latch/core/providers/webauthn"
export { default } from "@latch/core/providers/webauthn"
