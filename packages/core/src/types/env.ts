// The shape of an environment, apart from the code that reads one, so that every module of
// `config/` can name it.

/** An environment: `process.env`, SvelteKit's `$env/dynamic/private`, a platform's bindings… */
export type Env = Record<string, string | undefined>
