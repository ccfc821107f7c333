export * from "@latch/core/providers/roblox"
export { default } from "@latch/core/providers/roblox"
