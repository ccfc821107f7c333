export * from "@latch/core/providers"
