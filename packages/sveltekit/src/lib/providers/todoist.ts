export * from "@latch/core/providers/todoist"
export { default } from "@latch/core/providers/todoist"
