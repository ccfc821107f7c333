export { default as SignIn } from "./SignIn.svelte"
export { default as SignOut } from "./SignOut.svelte"
export { default as TwoFactorForm } from "./TwoFactorForm.svelte"
