import { afterAll } from 'vitest'
import { removeTemporaryFolders } from './temporary.js'

// Test files share a worker (isolate: false in vitest.config.ts) and the modules it has loaded,
// the project's too: loading them once per worker rather than once per file saves a tenth of the
// suite's CPU time under coverage. The source keeps no state in its modules (caches by object
// aside); a test that loads them afresh under its own environment (the proxy variables
// @actions/github reads when it loads) does so through loadAfresh (afresh.ts), which forgets them
// when the test ends.
// This hook removes the temporary folders the file's runs made (workspaces, repositories): a suite
// run makes over a thousand. Registered first, it runs after the file's own afterAll hooks.
afterAll(() => {
  removeTemporaryFolders()
})
