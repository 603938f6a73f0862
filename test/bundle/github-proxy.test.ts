import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useAgentServices } from '../support/agent-services.js'
import { LoopbackProxy, SilentProxy } from '../support/proxy.js'
import { type RunOptions, type RunResult, startAction } from '../support/run-action.js'

// GitHub behind a proxy that accepts the connection and never answers CONNECT, as the runner runs
// the bundles: the process exits as soon as run() is done, not when undici gives up on the tunnel
// (300 s). The calls' own limits (15 s, the post step's 10 s) are the run's clock's, checked
// in-process without waiting for them: test/flows/github-connection.test.ts. The bounds are
// generous, and far below 300 s. On the runners' Node too: ACTION_NODE=… (CONTRIBUTING.md).
const TOKEN = 'ghs_bundle_proxy_token'
const services = useAgentServices()
let proxy: SilentProxy
beforeAll(async () => {
  proxy = await SilentProxy.start()
})
afterAll(() => proxy.close())

const issue = {
  number: 7,
  title: 'Document the retry options',
  body: 'The client gained `retries`.',
  html_url: 'https://github.com/acme/docs/issues/7'
}

function options(extra: Partial<RunOptions> = {}): RunOptions {
  return {
    inputs: services.inputs(TOKEN),
    event: {
      action: 'labeled',
      label: { name: 'docs-agent' },
      issue,
      sender: { login: 'maintainer', type: 'User' }
    },
    ...extra,
    env: services.env({
      GITHUB_RUN_ID: '4242',
      GITHUB_RUN_ATTEMPT: '1',
      // Not loopback (never proxied), and https: the proxy is asked for a tunnel.
      GITHUB_API_URL: 'https://api.github.proxied.test',
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      ...extra.env
    })
  }
}

/** Killed after 90 s should it still be up (undici would keep it for 300 s). */
const LIMIT_MS = 90_000
const run = (extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  startAction({ ...options(extra), limitMs: LIMIT_MS }).done

describe(
  'the agent bundle, GitHub behind a proxy that never answers CONNECT',
  { timeout: 120_000 },
  () => {
    it('exits at once after run() when cancelled while the permission read waits for the proxy', async () => {
      const silent = await SilentProxy.start()
      try {
        const running = startAction({
          ...options({ env: { HTTPS_PROXY: silent.url, HTTP_PROXY: silent.url } }),
          limitMs: LIMIT_MS
        })
        await silent.connected()
        running.child.kill('SIGTERM')
        const result = await running.done
        // Ended by itself, not killed: nothing kept it alive once run() was done.
        expect(result.signal).toBeNull()
        expect(result.outputs.result).toBe('cancelled')
        expect(services.sim.exchanges).toHaveLength(0)
        // undici's 300 s wait for the tunnel would show here.
        expect(result.durationMs).toBeLessThan(60_000)
      } finally {
        await silent.close()
      }
    })

    it('goes through a proxy that answers, and comments (the same connections, working)', async () => {
      const working = await LoopbackProxy.start()
      try {
        // The proxy maps the name back to the fake GitHub on loopback.
        const apiUrl = services.gh.url.replace('127.0.0.1', 'github.proxied.test')
        const result = await run({
          env: { GITHUB_API_URL: apiUrl, HTTPS_PROXY: working.url, HTTP_PROXY: working.url }
        })
        expect(result.signal).toBeNull()
        expect(result.outputs.result).toBe('pr-opened')
        expect(services.gh.commentsOn(7)).toHaveLength(1)
        expect(new Set(working.targets)).toEqual(new Set([new URL(apiUrl).host]))
      } finally {
        await working.close()
      }
    })
  }
)
