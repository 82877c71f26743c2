/**
 * Modules loaded on their first use instead of at start (docs/decisions.md "Process memory: modules on first use"):
 * an idle `feeder all` does not hold the fetcher's HTTP client, the regex engine, feed discovery or the password
 * hasher until something needs them. Here rather than in src/server because the reader pipeline, which may import
 * nothing of the server's other areas, uses it too; it imports nothing.
 */

/** A module that could not be loaded: a broken installation, answered 500 and logged with this message. */
export class ModuleLoadError extends Error {
  constructor(what: string, cause: unknown) {
    super(`Feeder could not load ${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ModuleLoadError';
  }
}

/**
 * `load` run once, on the first call; calls meanwhile share it. A failed load is not kept: it is thrown as a
 * ModuleLoadError naming `what`, and the next call tries again. Loading a local module either finishes or fails, so
 * the first call waits for nothing else.
 */
export function onFirstUse<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = null;
      throw new ModuleLoadError(what, err);
    }));
}

/**
 * Runs `run` with the global `name` hidden and puts it back as it was. Node defines some globals (FormData, Response,
 * …) as getters that load its bundled undici and the web streams on first access, about 6 MB; a package that only
 * looks whether the global exists while it loads or registers would load them for nothing. Only for synchronous
 * work: nothing else runs while the global is hidden.
 */
export function withoutGlobal<T>(name: string, run: () => T): T {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, { value: undefined, configurable: true, writable: true });
  try {
    return run();
  } finally {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete (globalThis as Record<string, unknown>)[name];
  }
}
