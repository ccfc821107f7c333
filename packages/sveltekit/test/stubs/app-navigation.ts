// Stands in for SvelteKit's `$app/navigation`: records what the code under test invalidates.
export const invalidated: string[] = []
export async function invalidate(resource: string | URL | ((url: URL) => boolean)): Promise<void> {
  invalidated.push(String(resource))
}
export async function invalidateAll(): Promise<void> {
  invalidated.push("*")
}
