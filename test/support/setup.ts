import { afterAll, vi } from 'vitest'
import { removeTemporaryFolders } from './temporary.js'

// Test files share a worker (isolate: false in vitest.config.ts). A file that loads modules afresh
// under its own environment (the proxy variables @actions/github reads when it loads) must not
// hand them to the next file: each file starts from a clean module registry. Packages outside
// the project stay loaded, which is what sharing the worker saves.
// It also removes the temporary folders the file's runs made (workspaces, repositories): a suite
// run makes over a thousand. Registered first, this hook runs after the file's own afterAll hooks.
afterAll(() => {
  removeTemporaryFolders()
  vi.resetModules()
})
