export * from "@latch/core/providers/42-school"
export { default } from "@latch/core/providers/42-school"
