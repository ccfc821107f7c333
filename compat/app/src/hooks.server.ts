export { handle } from "./auth"
