import { afterEach, describe, expect, it, vi } from 'vitest'
import { useAgentServices } from '../support/agent-services.js'
import { SilentProxy } from '../support/proxy.js'
import type { RunOptions } from '../support/run-action.js'

// How the agent reaches GitHub, in-process: connections it owns and closes. The bundle's side (the
// process really exits, on the runner's Node): test/bundle/github-proxy.test.ts.
const TOKEN = 'ghs_connection_token'
const services = useAgentServices()
const { clock } = services
let runId = 7000
afterEach(() => {
  vi.unstubAllEnvs()
})

const labeled = {
  action: 'labeled',
  label: { name: 'docs-agent' },
  issue: {
    number: 7,
    title: 'Document the retry options',
    body: 'The client gained `retries`.',
    html_url: 'https://github.com/acme/docs/issues/7'
  },
  sender: { login: 'maintainer', type: 'User' }
}

function options(env: Record<string, string> = {}, inputs: Record<string, string> = {}) {
  runId++
  return {
    inputs: services.inputs(TOKEN, inputs),
    event: labeled,
    env: services.env({ GITHUB_RUN_ID: String(runId), GITHUB_RUN_ATTEMPT: '1', ...env })
  } satisfies RunOptions
}

describe('GitHub behind a proxy that accepts the connection and never answers CONNECT', () => {
  it('ends the call at the cancel and leaves no connection open once run() returns', async () => {
    const proxy = await SilentProxy.start()
    try {
      for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'])
        vi.stubEnv(name, proxy.url)
      vi.stubEnv('NO_PROXY', '')
      vi.stubEnv('no_proxy', '')
      // As on a runner, the action loads with the proxy variables set (the toolkit reads them then).
      vi.resetModules()
      const { startInProcess } = await import('../support/run-in-process.js')
      // Not loopback (never proxied), and https: the proxy is asked for a tunnel.
      const running = startInProcess({
        ...options({ GITHUB_API_URL: 'https://api.github.proxied.test' }),
        clock
      })
      // The trust gate's permission read is waiting for the proxy's answer.
      await proxy.connected()
      running.cancel('SIGTERM')
      const result = await running.done
      expect(result.outputs.result).toBe('cancelled')
      expect(services.sim.exchanges).toHaveLength(0)
      // What kept the process alive for 300 s: the tunnel nothing answered, still open after run().
      await proxy.idle()
      expect(proxy.open).toBe(0)
    } finally {
      await proxy.close()
    }
  })
})
