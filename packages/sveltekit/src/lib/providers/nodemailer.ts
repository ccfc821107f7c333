export * from "@latch/core/providers/nodemailer"
export { default } from "@latch/core/providers/nodemailer"
