export { default } from "@latch/core/providers/keycloak"
export type * from "@latch/core/providers/keycloak"
