export * from "@latch/core/providers/keycloak"
export { default } from "@latch/core/providers/keycloak"
