export * from "@latch/core/providers/wechat"
export { default } from "@latch/core/providers/wechat"
