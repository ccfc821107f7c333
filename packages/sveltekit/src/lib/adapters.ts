export * from "@latch/core/adapters"
