import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn the bundled action; two cores, so keep the pool small.
    maxWorkers: 2,
    // The domain code's clock is performance.now() (monotonic): fake it with the timers and Date.
    fakeTimers: {
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance']
    },
    // Loaded through Vite, so a test can load it afresh after setting the proxy variables it reads at load.
    server: { deps: { inline: ['@actions/github'] } }
  }
})
