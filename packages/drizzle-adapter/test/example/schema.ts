// The README's schema example, as an app writes it: Latch's tables spread into the app's own
// Drizzle schema next to its tables. `pnpm typecheck` compiles it; schema-example.test.ts runs it.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core"
import { users } from "@latch/drizzle-adapter/sqlite"

export * from "@latch/drizzle-adapter/sqlite"

export const notes = sqliteTable("note", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  ownerId: text("ownerId")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  body: text("body").notNull(),
})
