export * from "@latch/core/providers/naver"
export { default } from "@latch/core/providers/naver"
