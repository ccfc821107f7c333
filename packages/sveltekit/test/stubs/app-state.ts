// Stands in for SvelteKit's `$app/state`: tests write to `page.data`.
export const page: { data: Record<string, unknown> } = { data: {} }
