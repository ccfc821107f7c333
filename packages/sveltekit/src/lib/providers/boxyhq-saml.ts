export * from "@latch/core/providers/boxyhq-saml"
export { default } from "@latch/core/providers/boxyhq-saml"
