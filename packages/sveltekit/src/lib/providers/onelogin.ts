export * from "@latch/core/providers/onelogin"
export { default } from "@latch/core/providers/onelogin"
