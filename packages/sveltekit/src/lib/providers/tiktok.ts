export * from "@latch/core/providers/tiktok"
export { default } from "@latch/core/providers/tiktok"
