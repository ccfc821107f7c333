// The type augmentation the pages assume (core's "Database sessions": `user.role`, "a column of
// your users table"). The pages' own `declare module` blocks are compiled too, in the same
// program, as in the reader's app.
export {}

declare module "@latch/core/types" {
  interface User {
    role?: string
  }
}
