export { default } from "@latch/core/providers/microsoft-entra-id"
export type * from "@latch/core/providers/microsoft-entra-id"
