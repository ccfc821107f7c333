import { sequence } from "@sveltejs/kit/hooks"
import { handle as auth } from "./auth.js"
import { handle as guard } from "./guard.js"

export const handle = sequence(auth, guard)
