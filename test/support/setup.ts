import { afterAll, vi } from 'vitest'

// Test files share a worker (isolate: false in vitest.config.ts). A file that loads modules afresh
// under its own environment (the proxy variables @actions/github reads when it loads) must not
// hand them to the next file: each file starts from a clean module registry. Packages outside
// the project stay loaded, which is what sharing the worker saves.
afterAll(() => {
  vi.resetModules()
})
