/** The `options` of `<SignIn>` and `<SignOut>`, and how they become hidden form fields. */

/** Form fields: a record (e.g. `{ redirectTo: "/dashboard" }`) or a `FormData`. */
export type FormOptions =
  | FormData
  | ({
      /** Where to go afterwards. @default the page the form is on */
      redirectTo?: string
      /** Accepted for apps written for Auth.js; a form always navigates. */
      redirect?: boolean
    } & Record<string, any>)

/**
 * The `[name, value]` pairs of hidden inputs for `options`: the text values of a `FormData` (a
 * file cannot be a hidden input), and every set value of a record as text (`undefined` and
 * `null` are left out rather than sent as the words); then each of `authorizationParams` (any
 * form `URLSearchParams` takes) as `authorizationParams-<name>`.
 */
export function formFields(
  options: FormOptions | undefined,
  authorizationParams?: string | string[][] | Record<string, string> | URLSearchParams,
): [string, string][] {
  const fields: [string, string][] = []
  if (options instanceof FormData) {
    for (const [name, value] of options) if (typeof value === "string") fields.push([name, value])
  } else {
    for (const [name, value] of Object.entries(options ?? {}))
      if (value != null) fields.push([name, String(value)])
  }
  for (const [name, value] of new URLSearchParams(authorizationParams))
    fields.push([`authorizationParams-${name}`, value])
  return fields
}
