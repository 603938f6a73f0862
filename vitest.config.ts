import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: availableParallelism(),
    // Files share a worker: loading vitest, undici, Octokit, the validators and the rest once per
    // worker rather than once per file halves the suite's CPU time. What a file may leave behind is
    // undone after each test (environment variables, spies) and after each file (test/support/setup.ts).
    isolate: false,
    setupFiles: ['test/support/setup.ts'],
    unstubEnvs: true,
    restoreMocks: true,
    // The domain code's clock is performance.now() (monotonic): fake it with the timers and Date.
    fakeTimers: {
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance']
    },
    // Loaded through Vite, so a test can load it afresh after setting the proxy variables it reads at load.
    server: { deps: { inline: ['@actions/github'] } },
    // Flows run in-process from src/, so coverage measures the source the bundles are built from.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: '.tmp/coverage',
      // The bar issue 25 set at what is measured (96.9 % of lines, 90.4 % of branches); `npm test`
      // fails below it.
      thresholds: { lines: 95, branches: 88 }
    }
  }
})
