export * from "@latch/core/providers/bankid-no"
export { default } from "@latch/core/providers/bankid-no"
