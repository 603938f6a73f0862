import { onTestFinished, vi } from 'vitest'

/**
 * Loads the project's modules afresh, under the environment the test has just set (the proxy
 * variables and GITHUB_API_URL, which @actions/github reads as it loads), and forgets them when
 * the test ends. Test files share a worker and the modules it has loaded (test/support/setup.ts):
 * the next test, and the next file, must get them as they load by default, not behind this proxy.
 */
export async function loadAfresh<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules()
  onTestFinished(() => {
    vi.resetModules()
  })
  return load()
}
