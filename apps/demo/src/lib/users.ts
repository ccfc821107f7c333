// Demo users. Passwords are hashed with scrypt (node:crypto), as a real app would store them.
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto"

interface StoredUser {
  id: string
  name: string
  email: string
  username: string
  salt: Buffer
  key: Buffer
}

function withPassword(user: Omit<StoredUser, "salt" | "key">, password: string): StoredUser {
  const salt = randomBytes(16)
  return { ...user, salt, key: scryptSync(password, salt, 32) }
}

const users: StoredUser[] = [
  withPassword(
    { id: "1", name: "Alice Liddell", email: "alice@example.com", username: "alice" },
    "wonderland",
  ),
  withPassword(
    { id: "2", name: "Bob Builder", email: "bob@example.com", username: "bob" },
    "canwefixit",
  ),
]

/** The demo users as stored in the database (no password material). */
export const demoUsers = users.map(({ id, name, email }) => ({ id, name, email, image: null }))

/** The user whose username and password match, or `null`. */
export function verifyPassword(username: unknown, password: unknown) {
  const user = users.find(
    (candidate) =>
      candidate.username ===
      String(username ?? "")
        .trim()
        .toLowerCase(),
  )
  // Hash even for unknown users, so response time does not tell which usernames exist.
  const key = scryptSync(String(password ?? ""), user?.salt ?? randomBytes(16), 32)
  if (!user || !timingSafeEqual(key, user.key)) return null
  return { id: user.id, name: user.name, email: user.email }
}
