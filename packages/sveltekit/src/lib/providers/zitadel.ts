export { default } from "@latch/core/providers/zitadel"
export type * from "@latch/core/providers/zitadel"
