const STORE = Symbol.for('mintlify-action.tests.per-worker')

/**
 * One value per test worker, built on first use and kept for every later test file the worker
 * runs (files share workers: see test/support/setup.ts). For what is slow to build and never
 * changes: GitHub's GraphQL schema, the OpenAPI validators. The value must come from packages
 * outside the project, which stay loaded, never from a module of the project's, which a test may
 * load afresh (test/support/afresh.ts).
 */
export function perWorker<T>(key: string, build: () => T): T {
  const store = ((globalThis as Record<symbol, Map<string, unknown>>)[STORE] ??= new Map())
  if (!store.has(key)) store.set(key, build())
  return store.get(key) as T
}
