/**
 * The few test-runner functions the suite needs, typed by their shape so that this package
 * depends on no runner: pass vitest's (or Jest's) `describe`, `it`, `expect` and hooks.
 */

/** The matchers the suite uses. */
export interface Assertion {
  toBe(expected: unknown): void
  toEqual(expected: unknown): void
  toBeNull(): void
  toBeInstanceOf(expected: any): void
  toHaveLength(length: number): void
  toMatchObject(expected: any): void
  toContain(item: any): void
  not: Assertion
}

export type Expect = (actual: any, message?: string) => Assertion

export type Hook = (fn: () => Promise<void> | void, timeout?: number) => void

export interface TestApi {
  describe(name: string, fn: () => void): void
  /** `fn` receives the runner's test context; a case that does not apply calls its `skip()`
   * when it has one (vitest), and passes otherwise. */
  it(name: string, fn: (context?: any) => Promise<void> | void, timeout?: number): void
  expect: Expect
  /** When given, `setup` runs once for the whole suite (each test uses its own random ids). */
  beforeAll?: Hook
  afterAll?: Hook
  /** Used when `beforeAll` is not given: `setup` runs before every test. */
  beforeEach?: Hook
  afterEach?: Hook
}
