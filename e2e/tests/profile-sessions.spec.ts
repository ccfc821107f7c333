// The profile's "Where you are signed in", on one demo server: with database sessions it lists
// the user's sessions, this one marked; with JWT sessions the server has no list, and says so.
// (Signing other devices out, across two instances: two-instances.spec.ts.)
import { expect, test } from "@playwright/test"
import { ALICE, signInByApi } from "./support"

test("the profile says where the user is signed in", async ({ page }) => {
  await signInByApi(page, ALICE)
  await page.goto("/profile")
  const sessions = page.getByTestId("session")

  if (test.info().project.name === "jwt-sessions") {
    await expect(page.getByTestId("sessions-jwt")).toContainText("JWT sessions")
    await expect(sessions).toHaveCount(0)
    return
  }
  // Earlier tests of this run signed Alice in elsewhere too: only this session is "this device".
  const current = sessions.filter({ has: page.getByTestId("current-session") })
  await expect(current).toHaveCount(1)
  // Listed first (the most recently used), with what it recorded and no button to end it here.
  await expect(sessions.first()).toContainText("this device")
  await expect(current).toContainText(/Chrome on \w+/)
  await expect(current).toContainText("127.0.0.1")
  await expect(current.getByRole("button")).toHaveCount(0)
  await expect(page.getByTestId("sessions-jwt")).toHaveCount(0)
})
