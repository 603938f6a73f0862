import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIM_PROJECT } from '../simulator/server.js'
import { useAgentServices } from '../support/agent-services.js'
import { LoopbackProxy, SilentProxy } from '../support/proxy.js'
import { type RunOptions, type RunResult, startAction } from '../support/run-action.js'

// GitHub behind a proxy that accepts the connection and never answers CONNECT, as the runner runs
// the bundles: every GitHub call ends at its limit (15 s, the post step's 10 s) and the process
// exits as soon as run() is done, not when undici gives up on the tunnel (300 s). The bounds are
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

/** Runs the bundle, killed after 90 s should it still be up (undici would keep it for 300 s). */
async function run(extra: Partial<RunOptions> = {}): Promise<RunResult> {
  const running = startAction(options(extra))
  const limit = setTimeout(() => running.child.kill('SIGKILL'), 90_000)
  try {
    return await running.done
  } finally {
    clearTimeout(limit)
  }
}

describe(
  'the agent bundle, GitHub behind a proxy that never answers CONNECT',
  { timeout: 120_000 },
  () => {
    it('ends the permission read at its 15 s limit and exits at once after run()', async () => {
      const result = await run()
      expect(result.signal).toBeNull()
      expect(result.code).toBe(0)
      expect(result.outputs.result).toBe('skipped')
      expect(result.log).toMatch(
        /Could not read @maintainer's permission on the repository \(no answer from GitHub \(.*\)\), so the run is refused/
      )
      expect(services.sim.exchanges).toHaveLength(0)
      // 15 s for the read; undici's 300 s wait for the tunnel would show here.
      expect(result.durationMs).toBeLessThan(60_000)
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

    it('has the post step end its comment update at its 10 s limit and exit at once', async () => {
      const job = { id: 'job_proxy_1', status: 'active' }
      const state = {
        comment: JSON.stringify({
          issue: 7,
          commentId: 1000,
          job,
          ctx: {
            marker: { job: job.id, run: '4242', attempt: 1 },
            runUrl: '',
            projectId: SIM_PROJECT
          },
          final: false
        })
      }
      const result = await run({ entry: 'dist/post/index.js', state })
      expect(result.signal).toBeNull()
      expect(result.code).toBe(0)
      expect(result.log).toMatch(/::warning::Could not finalise the agent comment/)
      expect(result.durationMs).toBeLessThan(60_000)
    })
  }
)
