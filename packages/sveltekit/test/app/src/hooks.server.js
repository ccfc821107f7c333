export { handle } from "./auth.js"
