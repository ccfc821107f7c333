// The form a form action was posted, or a clear 400: a body that is not a form (a script's
// `text/plain`, a broken multipart) must not reach the action as a 500 with a stack.
import { error } from "@sveltejs/kit"

export async function postedForm(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    error(400, "Send this form as application/x-www-form-urlencoded or multipart/form-data.")
  }
}
