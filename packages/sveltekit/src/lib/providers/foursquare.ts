export * from "@latch/core/providers/foursquare"
export { default } from "@latch/core/providers/foursquare"
