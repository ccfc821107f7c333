export * from "@latch/core/providers/vk"
export { default } from "@latch/core/providers/vk"
