/** The types of index.mjs: Auth.js's passkey flows, driven as a browser would. */
export declare const ORIGIN: string

/** An adapter, as Auth.js takes it. */
type AnyAdapter = object

export interface CeremonyResult {
  response: Response
  options: { action: string; options: Record<string, unknown> }
  /** The cookies the browser holds afterwards. */
  cookies: Map<string, string>
}

export declare function passkeyConfig(adapter: AnyAdapter, secret: string): object

export declare function registerWithAuthjs(params: {
  adapter: AnyAdapter
  secret: string
  email: string
  create: (options: { challenge: string; user: { id: string } }) => unknown
}): Promise<CeremonyResult>

export declare function signInWithAuthjs(params: {
  adapter: AnyAdapter
  secret: string
  get: (options: { challenge: string }) => unknown
}): Promise<CeremonyResult>
