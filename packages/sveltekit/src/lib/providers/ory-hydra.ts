export * from "@latch/core/providers/ory-hydra"
export { default } from "@latch/core/providers/ory-hydra"
