// Demo users, with passwords hashed by scrypt (node:crypto) as a real app would store them.
import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto"

function hash(password) {
  const salt = randomBytes(16)
  return { salt, key: scryptSync(password, salt, 32) }
}

const users = [
  {
    id: "1",
    name: "Alice Liddell",
    email: "alice@example.com",
    username: "alice",
    ...hash("wonderland"),
  },
  {
    id: "2",
    name: "Bob Builder",
    email: "bob@example.com",
    username: "bob",
    ...hash("canwefixit"),
  },
]

/** The user whose username and password match, or null. */
export function checkPassword(username, password) {
  const user = users.find((candidate) => candidate.username === String(username ?? ""))
  // Hash even for unknown users, so that timing does not tell which usernames exist.
  const candidate = scryptSync(String(password ?? ""), user?.salt ?? randomBytes(16), 32)
  if (!user || !timingSafeEqual(candidate, user.key)) return null
  return { id: user.id, name: user.name, email: user.email }
}
