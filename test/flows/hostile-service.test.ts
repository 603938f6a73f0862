import { beforeAll, describe, expect, it } from 'vitest'
import type { FakeGitHub, GitHubRequest } from '../simulator/fake-github.js'
import { SIM_API_KEY, type Simulator } from '../simulator/server.js'
import { useAgentServices } from '../support/agent-services.js'
import { expectCleanFailure, visible } from '../support/assertions.js'
import { closedPort } from '../support/clients.js'
import type { RunOptions, RunResult } from '../support/run-action.js'
import { runInProcess, startInProcess } from '../support/run-in-process.js'

// A service and a GitHub that answer what an attacker would have them answer: the action must
// keep secrets, refuse what it cannot use, and never let a value run as Markdown or a command.
// Run in-process from src/; the real signals to the bundle are in test/bundle/agent.test.ts.
const TOKEN = 'ghs_hostile_token_value'
const services = useAgentServices()
const { clock } = services
let sim: Simulator
let gh: FakeGitHub
beforeAll(() => {
  ;({ sim, gh } = services)
})

const issue = {
  number: 7,
  title: 'Document it',
  body: 'Please.',
  html_url: 'https://github.com/acme/docs/issues/7'
}
function options(inputs: Record<string, string> = {}): RunOptions {
  return {
    inputs: services.inputs(TOKEN, inputs),
    event: {
      action: 'labeled',
      label: { name: 'docs-agent' },
      issue,
      sender: { login: 'maintainer', type: 'User' }
    },
    env: services.env({ GITHUB_RUN_ID: '77' })
  }
}
const run = (inputs: Record<string, string> = {}): Promise<RunResult> =>
  runInProcess({ ...options(inputs), clock })
/** Resolves with the first request to GitHub with this method and a matching path, as it arrives. */
const arrival = (method: string, path: RegExp): Promise<GitHubRequest> =>
  new Promise(resolve => {
    const stop = gh.onRequest(request => {
      if (request.method !== method || !path.test(request.path)) return
      stop()
      resolve(request)
    })
  })
const comment = (): string => gh.commentsOn(7)[0]?.body ?? ''
/** Everything written anywhere: log, outputs, summary, the comment and every body sent to GitHub. */
const everything = (result: RunResult): string =>
  [
    visible(result),
    JSON.stringify(result.state),
    JSON.stringify(gh.requests.map(r => r.body))
  ].join('\n')

/**
 * `text` with its bytes percent-encoded: every byte in upper or lower case hex, or every other
 * character, alternating the case of the hex, with the rest left plain.
 */
function percentEncoded(text: string, style: 'upper' | 'lower' | 'mixed'): string {
  return Array.from(Buffer.from(text), (byte, i) => {
    const hex = byte.toString(16).padStart(2, '0')
    if (style === 'upper') return `%${hex.toUpperCase()}`
    if (style === 'lower') return `%${hex}`
    if (i % 2) return String.fromCharCode(byte)
    return `%${i % 4 ? hex.toUpperCase() : hex}`
  }).join('')
}

describe('values the service sends back', () => {
  it.each([
    ['the key', SIM_API_KEY],
    ['the GitHub token', TOKEN],
    ['the key, base64-encoded', Buffer.from(SIM_API_KEY).toString('base64')],
    ['the token, percent-encoded', encodeURIComponent(`x/${TOKEN}`)],
    ['the key, every byte percent-encoded', percentEncoded(SIM_API_KEY, 'upper')],
    ['the key, every byte percent-encoded in lower case', percentEncoded(SIM_API_KEY, 'lower')],
    ['the token, some bytes percent-encoded in mixed case', percentEncoded(TOKEN, 'mixed')]
  ])('never repeats %s echoed in a job field', async (_name, echoed) => {
    sim.inject({ route: 'get', kind: 'tamper', fields: { model: echoed }, times: 100 })
    const result = await run()
    expect(result.outputs.result).toBe('pr-opened')
    for (const secret of [SIM_API_KEY, TOKEN, echoed])
      expect(everything(result)).not.toContain(secret)
  })

  it('never rebuilds the key from a repository link whose host holds it percent-encoded', async () => {
    // The URL parser decodes a host's percent-escapes: the summary's link would spell the key out.
    const repository = `https://${percentEncoded(SIM_API_KEY, 'upper')}.example/docs`
    sim.inject({ route: 'get', kind: 'tamper', fields: { source: { repository } }, times: 100 })
    const result = await run()
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.summary).toContain('| Docs repository |')
    for (const text of [everything(result), decodeURIComponent(everything(result))])
      expect(text.toLowerCase()).not.toContain(SIM_API_KEY.toLowerCase())
  })

  it('never lets the summary rebuild the key from an upper-case repository host', async () => {
    // No form of the key is in the answer; the URL parser lowercases the host as the summary links it.
    const repository = `https://${SIM_API_KEY.toUpperCase()}.example/docs`
    sim.inject({ route: 'get', kind: 'tamper', fields: { source: { repository } }, times: 100 })
    const result = await run()
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.summary).toContain('| Docs repository |')
    expect(everything(result)).not.toContain(SIM_API_KEY)
  })

  it.each([
    ['a tab inside', `https://evil.example/${SIM_API_KEY.slice(0, 6)}\t${SIM_API_KEY.slice(6)}`],
    ['an upper-case host', `https://${SIM_API_KEY.toUpperCase()}.example/pull/1`]
  ])(
    'never rebuilds the key from a link with %s (the URL parser would normalise it)',
    async (_name, prLink) => {
      sim.inject({ route: 'get', kind: 'tamper', fields: { prLink }, times: 100 })
      const result = await run()
      expect(result.outputs.prLink).toBe('')
      expect(everything(result).toLowerCase()).not.toContain(SIM_API_KEY.toLowerCase())
    }
  )

  it.each([
    ['javascript:alert(1)'],
    ['see the dashboard'],
    ['ftp://files.example/pr/1'],
    [`https://github.com/acme/docs/pull/${'9'.repeat(3000)}`]
  ])('does not count %s as a pull request', async prLink => {
    sim.inject({ route: 'get', kind: 'tamper', fields: { prLink }, times: 100 })
    const result = await run()
    expect(result.outputs.result).toBe('no-changes')
    expect(result.outputs.prLink).toBe('')
    expect(result.log).toMatch(/::warning::The service sent a pull request link that is not/)
    expect(result.summary + comment()).not.toContain(prLink.slice(0, 40))
  })

  it('keeps a crafted link from ending early, mentioning a team or showing an image', async () => {
    const prLink =
      'https://github.com/o/r/pull/7)_**@octo-org/maintainers**_![t](https://evil.example/p.png'
    sim.inject({ route: 'get', kind: 'tamper', fields: { prLink }, times: 100 })
    const result = await run()
    expect(result.outputs.result).toBe('pr-opened')
    for (const text of [result.summary, comment()]) {
      expect(text).not.toMatch(/@octo-org/)
      expect(text).not.toMatch(/!\[/)
      expect(text).not.toMatch(/\]\([^)]*\)_\*\*/)
    }
  })

  it('writes no workflow command from a value with a line break, and goes on waiting', async () => {
    sim.inject({
      route: 'get',
      kind: 'tamper',
      fields: { model: 'm\n::set-output name=result::pwned\n::stop-commands::x' },
      times: 2
    })
    const result = await run()
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.log).not.toMatch(/^::(set-output|stop-commands)/m)
    expect(result.log).toMatch(
      /::warning::Job job_\w+: the service sent 'model' as a text with a control character or line break, which this action cannot use; it is treated as absent\./
    )
  })

  it.each([
    ['a status that is not a text', { status: 5 }],
    ['another job', { id: 'job_someone_else', status: 'completed' }],
    ['an id that is not a text', { id: ['job_1'] }]
  ])('passes over a status answer with %s, as over a network error', async (_name, fields) => {
    sim.inject({ route: 'get', kind: 'tamper', fields, times: 2 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.outputs.jobId).toMatch(/^job_\d+_/)
    expect(result.log).toMatch(/::warning::Could not read the status of job/)
  })

  it('says a job was probably created when the 201 has no usable id', async () => {
    sim.inject({ route: 'create', kind: 'tamper', fields: { id: ['x'] } })
    const result = await run()
    expectCleanFailure(result, /The service accepted the request to create the agent job but/, [
      SIM_API_KEY,
      TOKEN
    ])
    expect(result.log).toMatch(/A job was probably created\. Look for it among the agent jobs/)
    expect(sim.requests('create')).toHaveLength(1)
  })

  it.each([
    ['prLink', 42, 'not a text (number)'],
    ['model', { name: 'm' }, 'not a text (object)'],
    ['createdAt', { $date: 1 }, 'not a text (object)'],
    ['source', 'https://github.com/acme/docs', 'not an object'],
    ['status', ['active'], 'not a text (an array)'],
    ['model', 'x'.repeat(600), 'a text over 500 characters']
  ])(
    "keeps a created job whose '%s' has the wrong type: absent, with a warning naming it",
    async (field, value, problem) => {
      sim.planNext({ durationMs: 60_000 })
      sim.inject({ route: 'create', kind: 'tamper', fields: { [field]: value } })
      const result = await run({ wait: 'false' })
      expect(result.code).toBe(0)
      expect(result.outputs.jobId).toMatch(/^job_\d+_/)
      expect(result.outputs.result).toBe('started')
      expect(result.log).toContain(
        `::warning::Job ${result.outputs.jobId}: the service sent '${field}' as ${problem}, which this action cannot use; it is treated as absent.`
      )
      expect(result.log).not.toContain('probably created')
      expect(sim.requests('create')).toHaveLength(1)
      expect(comment()).toContain(result.outputs.jobId)
    }
  )

  it('waits for a created job whose answer garbles every field but the id, naming each once', async () => {
    sim.inject({
      route: 'create',
      kind: 'tamper',
      fields: { status: 5, model: [], createdAt: {}, prLink: true, source: { repository: 7 } }
    })
    sim.inject({ route: 'get', kind: 'tamper', fields: { model: [] }, times: 100 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ result: 'pr-opened', status: 'completed', model: '' })
    for (const field of ['status', 'model', 'createdAt', 'prLink', 'source.repository'])
      expect(result.log.split(`the service sent '${field}' as`)).toHaveLength(2)
    expect(JSON.parse(result.outputs.job as string)).not.toHaveProperty('ignored')
    expect(result.log).toContain(
      `::warning::The service's answer for job ${result.outputs.jobId} has no status; treating the job as still running.`
    )
    expect(result.log).not.toContain("status 'undefined'")
  })

  it('accepts a status answer without an id: the document requires none', async () => {
    sim.inject({ route: 'get', kind: 'tamper', fields: { id: null }, times: 100 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.log).not.toMatch(/::warning::/)
  })
})

describe('re-runs', () => {
  it('does not start a second job when a re-run cannot read the comments', async () => {
    gh.failures.set('list-comments', 502)
    const result = await runInProcess({
      ...options(),
      env: { ...options().env, GITHUB_RUN_ATTEMPT: '2' },
      clock
    })
    expectCleanFailure(result, /Attempt 2 of this run could not read the comments of #7/, [
      SIM_API_KEY,
      TOKEN
    ])
    expect(sim.requests('create')).toHaveLength(0)
  })
})

describe('cancel', () => {
  it('stops a slow permission check at the cancel, as cancelled, with no job', async () => {
    // GitHub never answers: a step that ends did not wait for it.
    gh.delays.set('permission', Infinity)
    const asked = arrival('GET', /\/permission$/)
    const running = startInProcess({ ...options(), clock })
    await running.waitFor(/::add-mask::/)
    const request = await asked
    running.cancel('SIGINT')
    const result = await running.done
    expect(request.status).toBeUndefined()
    expect(result.outputs.result).toBe('cancelled')
    expect(sim.requests('create')).toHaveLength(0)
  })

  it('stops a slow comment at the cancel, as cancelled, with outputs and summary', async () => {
    sim.planNext({ durationMs: 60_000 })
    // GitHub never answers: a step that ends did not wait for it.
    gh.delays.set('create-comment', Infinity)
    const comments = /\/issues\/7\/comments$/
    const starting = arrival('POST', comments)
    const running = startInProcess({ ...options(), clock })
    await starting
    // The "starting" comment ends at its 15 s time limit, on the run's clock: moved on here.
    const withJob = arrival('POST', comments)
    clock.advance(15_000)
    await running.waitFor(/Created job/)
    // The comment naming the job hangs too: the cancel comes while it waits.
    const request = await withJob
    running.cancel('SIGINT')
    // The comment's last word after the cancel has a 1.5 s grace, on the run's clock: moved on here.
    await arrival('POST', comments)
    clock.advance(1500)
    const result = await running.done
    expect(request.status).toBeUndefined()
    expect(result.log).toContain(
      `Could not comment on #7: no answer from GitHub (The operation was aborted due to timeout)`
    )
    expect(result.outputs.result).toBe('cancelled')
    expect(result.outputs.jobId).toMatch(/^job_/)
    expect(result.summary).toContain('cancelled')
  })

  it('says the job may exist when cancelled during the create request', async () => {
    // The service never answers the create: the run ends only at the cancel.
    sim.inject({ route: 'create', kind: 'delay', ms: Infinity })
    const sent = new Promise<void>(resolve => {
      const stop = sim.onRequest(exchange => {
        if (exchange.route !== 'create') return
        stop()
        resolve()
      })
    })
    const running = startInProcess({ ...options({ comment: 'false' }), clock })
    await running.waitFor(/Creating an agent job/)
    await sent
    running.cancel('SIGINT')
    const result = await running.done
    expect(result.outputs.result).toBe('cancelled')
    expect(result.log).toMatch(
      /::error::Cancelled while waiting for the answer to the request to create the agent job; the service may have acted on it\. A job may have been created/
    )
  })
})

describe('GitHub that cannot be read', () => {
  it('says GitHub gave no answer, not "HTTP 500", when it cannot be reached', async () => {
    const closed = await closedPort()
    const result = await runInProcess({
      ...options(),
      env: { ...options().env, GITHUB_API_URL: `http://127.0.0.1:${closed}` },
      clock
    })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(/::error::Could not read the policy file .*\(ECONNREFUSED\)/)
    expect(result.log).not.toContain('HTTP 500')
  })

  it('refuses a permission answer that holds no permission (a redirect), saying so', async () => {
    gh.failures.set('permission', 302)
    const result = await run()
    expect(result.outputs.result).toBe('skipped')
    expect(result.log).toMatch(/GitHub answered without a permission/)
    expect(result.log).not.toMatch(/has 'no' permission/)
    expect(sim.requests('create')).toHaveLength(0)
  })
})
