export * from "@latch/core/providers/freshbooks"
export { default } from "@latch/core/providers/freshbooks"
