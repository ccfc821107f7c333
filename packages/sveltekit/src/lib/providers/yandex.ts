export * from "@latch/core/providers/yandex"
export { default } from "@latch/core/providers/yandex"
