export * from "@latch/core/providers/strava"
export { default } from "@latch/core/providers/strava"
