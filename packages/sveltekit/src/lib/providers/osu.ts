export * from "@latch/core/providers/osu"
export { default } from "@latch/core/providers/osu"
