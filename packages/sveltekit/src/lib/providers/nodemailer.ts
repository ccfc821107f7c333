export { default } from "@latch/core/providers/nodemailer"
export * from "@latch/core/providers/nodemailer"
