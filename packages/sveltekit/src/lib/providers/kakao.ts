export * from "@latch/core/providers/kakao"
export { default } from "@latch/core/providers/kakao"
