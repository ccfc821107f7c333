export * from "@latch/core/providers/zitadel"
export { default } from "@latch/core/providers/zitadel"
