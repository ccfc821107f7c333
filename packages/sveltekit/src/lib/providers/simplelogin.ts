export * from "@latch/core/providers/simplelogin"
export { default } from "@latch/core/providers/simplelogin"
