export * from "@latch/core/providers/microsoft-entra-id"
export { default } from "@latch/core/providers/microsoft-entra-id"
