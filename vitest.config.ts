import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the bundled action; two cores, so keep the pool small.
    maxWorkers: 2,
    // Loaded through Vite, so a test can load it afresh after setting the proxy variables it reads at load.
    server: { deps: { inline: ['@actions/github'] } }
  }
})
