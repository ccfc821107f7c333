export * from "@latch/core/providers/osso"
export { default } from "@latch/core/providers/osso"
