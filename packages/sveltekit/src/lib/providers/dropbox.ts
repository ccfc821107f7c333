export * from "@latch/core/providers/dropbox"
export { default } from "@latch/core/providers/dropbox"
