export { default } from "@latch/core/providers/webauthn"
export * from "@latch/core/providers/webauthn"
