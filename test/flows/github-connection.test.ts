import { afterEach, describe, expect, it, vi } from 'vitest'
import { useAgentServices } from '../support/agent-services.js'
import { SIM_PROJECT } from '../simulator/server.js'
import { SilentProxy } from '../support/proxy.js'
import type { RunOptions, RunResult } from '../support/run-action.js'
import type { RunningInProcess } from '../support/run-in-process.js'
import { loadAfresh } from '../support/afresh.js'

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

/**
 * Starts the step in-process behind a proxy that accepts the connection and never answers, loaded
 * as on a runner, with the proxy variables set (the toolkit reads them then), GitHub at an https
 * name (loopback is never proxied): the proxy is asked for a tunnel. `drive` has it once the
 * proxy is reached; then the run must leave no tunnel open (what kept the process alive for 300 s).
 */
async function behindSilentProxy(
  step: Partial<RunOptions>,
  drive: (running: RunningInProcess, proxy: SilentProxy) => Promise<void> | void
): Promise<RunResult> {
  const proxy = await SilentProxy.start()
  try {
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'])
      vi.stubEnv(name, proxy.url)
    vi.stubEnv('NO_PROXY', '')
    vi.stubEnv('no_proxy', '')
    const { startInProcess } = await loadAfresh(() => import('../support/run-in-process.js'))
    const base = options({ GITHUB_API_URL: 'https://api.github.proxied.test' })
    const running = startInProcess({ ...base, ...step, env: { ...base.env, ...step.env }, clock })
    await proxy.connected()
    await drive(running, proxy)
    const result = await running.done
    await proxy.idle()
    expect(proxy.open).toBe(0)
    return result
  } finally {
    await proxy.close()
  }
}

describe('GitHub behind a proxy that accepts the connection and never answers CONNECT', () => {
  it('ends the call at the cancel and leaves no connection open once run() returns', async () => {
    // The run's first GitHub read, its policy file's, is waiting for the proxy's answer.
    const result = await behindSilentProxy({}, running => running.cancel('SIGTERM'))
    expect(result.outputs.result).toBe('cancelled')
    expect(services.sim.exchanges).toHaveLength(0)
  })
})

// The limits themselves, on the run's clock (moved on here, not waited for): the bundle's side, that
// the process exits once run() is done, is test/bundle/github-proxy.test.ts.
describe('GitHub behind a proxy that never answers CONNECT: the time limits', () => {
  /** Runs `step`, the clock moved on `ms` once the proxy is reached. */
  async function limited(ms: number, step: Partial<RunOptions>) {
    const started = performance.now()
    const result = await behindSilentProxy(step, async (_, proxy) => {
      // Just short of the limit, nothing ends; at it, the call does.
      clock.advance(ms - 1000)
      await new Promise(resolve => setImmediate(resolve))
      expect(proxy.open).toBe(1)
      clock.advance(1000)
    })
    // The limit is the run's clock's: no real wait for it.
    expect(performance.now() - started).toBeLessThan(ms / 2)
    return result
  }

  it('ends the first GitHub read (the policy file) at its 15 s limit, and the run fails, saying GitHub did not answer', async () => {
    const result = await limited(15_000, {})
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not read the policy file \.github\/docs-agent\.yml of acme\/docs \(no answer from GitHub \(.*\)\)\. Run the workflow again later\./
    )
    expect(services.sim.exchanges).toHaveLength(0)
  })

  it("ends the post step's comment update at its 10 s limit, with a warning", async () => {
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
    const result = await limited(10_000, { entry: 'dist/post/index.js', state })
    expect(result.code).toBe(0)
    expect(result.log).toMatch(/::warning::Could not finalise the agent comment/)
  })
})

// @github/local-action hands over action.yml's defaults as written: `github-token` is then the
// text of its default expression. So can any secret be, in its env file.
describe('a secret input that is an unexpanded ${{ }} expression', () => {
  const UNEXPANDED = '${{ github.token }}'
  const dispatch = {
    eventName: 'workflow_dispatch',
    event: { inputs: {} }
  }
  const run = (inputs: Record<string, string>, env: Record<string, string> = {}, event?: unknown) =>
    import('../support/run-in-process.js').then(({ runInProcess }) => {
      const step = options(env, inputs)
      return runInProcess({ ...step, event: event ?? step.event, clock })
    })

  it('does not fail a run that never needs it: a dispatch run with a prompt makes no GitHub call', async () => {
    const result = await run(
      {
        'github-token': UNEXPANDED,
        'docs-token': '${{ secrets.DOCS_TOKEN }}',
        prompt: 'Fix typos'
      },
      { GITHUB_EVENT_NAME: dispatch.eventName },
      dispatch.event
    )
    expect(result.log).not.toMatch(/::error::/)
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
    expect(services.gh.requests).toHaveLength(0)
    // Not a secret: nothing to mask.
    expect(result.log).not.toContain('::add-mask::${{')
  })

  it('fails where it is needed, saying the expression was not expanded and how to give the token', async () => {
    const result = await run({ 'github-token': UNEXPANDED })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Input 'github-token' is the text of a \$\{\{ … \}\} expression, not its value: nothing expanded it \(@github\/local-action passes action\.yml's defaults and its env file's values as written\)\. Give the value itself, e\.g\. INPUT_GITHUB-TOKEN=… in local-action's env file \(a token from `gh auth token` will do\)\./
    )
    expect(result.log).not.toContain('cannot be sent in an HTTP header')
    expect(services.gh.requests).toHaveLength(0)
    expect(services.sim.exchanges).toHaveLength(0)
  })

  it('holds for the key too: not needed by a skipped run, named when a job is to start', async () => {
    const comment = {
      action: 'created',
      issue: labeled.issue,
      comment: { id: 5, body: 'Thanks!' },
      sender: { login: 'maintainer', type: 'User' }
    }
    const key = { 'api-key': '${{ secrets.MINTLIFY_API_KEY }}' }
    const skipped = await run(key, { GITHUB_EVENT_NAME: 'issue_comment' }, comment)
    expect(skipped.code).toBe(0)
    expect(skipped.outputs.result).toBe('skipped')
    const needed = await run(
      { ...key, prompt: 'Fix typos' },
      { GITHUB_EVENT_NAME: dispatch.eventName },
      dispatch.event
    )
    expect(needed.code).toBe(1)
    expect(needed.log).toMatch(
      /::error::Input 'api-key' is the text of a \$\{\{ … \}\} expression, not its value: .*INPUT_API-KEY=…/
    )
    expect(services.sim.exchanges).toHaveLength(0)
  })
})
