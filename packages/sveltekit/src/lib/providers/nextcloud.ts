export * from "@latch/core/providers/nextcloud"
export { default } from "@latch/core/providers/nextcloud"
