export * from "@latch/core/providers/wordpress"
export { default } from "@latch/core/providers/wordpress"
