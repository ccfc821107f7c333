import { ensureRedisServer } from "./redis-server.js"

/** Before any file starts: a missing `redis-server` fails the run once, saying what to install. */
export default function setup() {
  ensureRedisServer()
}
