export * from "@latch/core/providers/eventbrite"
export { default } from "@latch/core/providers/eventbrite"
