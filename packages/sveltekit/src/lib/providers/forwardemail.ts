export * from "@latch/core/providers/forwardemail"
export { default } from "@latch/core/providers/forwardemail"
