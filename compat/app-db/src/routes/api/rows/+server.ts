import { json } from "@sveltejs/kit"
import { tables } from "$lib/server/db"
import type { RequestHandler } from "./$types"

/** How many rows each table holds (what a look into the database would show). */
export const GET: RequestHandler = () =>
  json(Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.size])))
