import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { expectCleanFailure, visible } from '../support/assertions.js'
import { closedPort } from '../support/clients.js'
import type { RunOptions } from '../support/run-action.js'
import { runInProcess, startInProcess } from '../support/run-in-process.js'
import { HeldClock, VirtualClock } from '../support/virtual-clock.js'

const clock = new VirtualClock()
let sim: Simulator
beforeAll(async () => {
  sim = await Simulator.start({ job: { durationMs: 300 }, now: clock.wallNow })
})
afterAll(() => sim.close())
beforeEach(() => {
  sim.reset()
})

const inputs = (extra: Record<string, string> = {}): RunOptions['inputs'] => ({
  'api-key': SIM_API_KEY,
  'project-id': SIM_PROJECT,
  'api-url': sim.url,
  prompt: 'Document the retry options',
  // Checks every second (the first at 1 s) so the suite stays quick; the default schedule is unit-tested.
  'poll-interval': '1s',
  ...extra
})
const run = (extra: Record<string, string> = {}, options: Partial<RunOptions> = {}) =>
  runInProcess({ inputs: inputs(extra), clock, ...options })

describe('the agent action, run in-process from source', () => {
  it('creates a job, waits, and reports the pull request', async () => {
    const result = await run()
    expect(result.code).toBe(0)
    const job = JSON.parse(result.outputs.job as string)
    expect(result.outputs).toMatchObject({
      jobId: job.id,
      status: 'completed',
      prLink: expect.stringMatching(/^https:\/\/github.com\/acme\/docs\/pull\/\d+$/),
      model: 'sim-model-1',
      result: 'pr-opened'
    })
    expect(result.log).toContain(
      `::notice title=Mintlify agent::Pull request: ${result.outputs.prLink}`
    )
    expect(result.log).toMatch(/::group::Waiting for job job_\w+ \(up to 30m\)/)
    expect(result.summary).toContain('The agent opened a pull request')
    expect(result.summary).toContain(`(${result.outputs.prLink})`)
    for (const field of ['Job id', 'Model', 'Docs repository', 'Created', 'Elapsed'])
      expect(result.summary).toContain(`| ${field} |`)
    expect(result.summary).toContain(
      '[https://github.com/acme/docs](https://github.com/acme/docs) @ main'
    )
    expect(sim.requests('create')).toHaveLength(1)
    expect(visible(result)).not.toContain(SIM_API_KEY)
    expect(result.log).toContain('::add-mask::')
  })

  it('reports a job that completed without a pull request, failing only with fail-on: no-pr', async () => {
    sim.planNext({ prLink: false })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', prLink: '', result: 'no-changes' })
    expect(result.summary).toContain('finished without changes')
    sim.planNext({ prLink: false })
    const strict = await run({ 'fail-on': 'failed,timeout,no-pr' })
    expect(strict.code).toBe(1)
    expect(strict.log).toMatch(
      /::error::Job job_\w+ ended as 'no-changes', and 'fail-on' includes 'no-pr'/
    )
  })

  it('fails the step on a failed job, with outputs set', async () => {
    sim.planNext({ finalStatus: 'failed' })
    const result = await run()
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ status: 'failed', result: 'failed', prLink: '' })
    expect(result.outputs.jobId).toMatch(/^job_/)
    expect(result.log).toMatch(
      /::error::Job job_\w+ ended as 'failed', and 'fail-on' includes 'failed'/
    )
    sim.planNext({ finalStatus: 'failed' })
    expect((await run({ 'fail-on': 'none' })).code).toBe(0)
  })

  it('reports an archived job without failing by default', async () => {
    sim.planNext({ finalStatus: 'archived' })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'archived', result: 'archived' })
    sim.planNext({ finalStatus: 'archived' })
    expect((await run({ 'fail-on': 'archived' })).code).toBe(1)
  })

  it('times out with the outputs set and says the job may still finish', async () => {
    sim.planNext({ durationMs: 60_000 })
    const result = await run({ timeout: '2s' })
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ status: 'active', result: 'timed-out', prLink: '' })
    expect(result.outputs.jobId).toMatch(/^job_/)
    expect(result.log).toMatch(
      /::warning::Stopped waiting for job job_\w+ after 2s; it was still active/
    )
    expect(result.log).toMatch(/'fail-on' includes 'timeout'/)
    expect(result.summary).toContain('may still open a pull request')
    // It stopped at the 2 s limit, not at the job's end a minute later.
    expect(result.waitedMs).toBeLessThanOrEqual(2000)
  })

  it('returns at once with wait: false', async () => {
    sim.planNext({ durationMs: 60_000 })
    const result = await run({ wait: 'false' })
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'active', result: 'started' })
    expect(sim.requests('create')).toHaveLength(1)
    expect(sim.requests('get')).toHaveLength(0)
  })

  it('sends a follow-up to an existing job and waits for it', async () => {
    const first = await run()
    const jobId = first.outputs.jobId as string
    sim.exchanges.length = 0
    const result = await run({ 'job-id': jobId, prompt: 'Also add a Python example' })
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ jobId, result: 'pr-opened' })
    expect(sim.requests('create')).toHaveLength(0)
    expect(sim.requests('message').map(r => [r.path, r.requestBody])).toEqual([
      [`/v2/agent/${SIM_PROJECT}/job/${jobId}/message`, { prompt: 'Also add a Python example' }]
    ])
    expect(sim.requests('get').length).toBeGreaterThan(0)
  })

  it('waits for an existing job when given only its id', async () => {
    sim.planNext({ durationMs: 60_000 })
    const started = await run({ wait: 'false' })
    sim.exchanges.length = 0
    const result = await run({
      'job-id': started.outputs.jobId as string,
      prompt: '',
      timeout: '1s'
    })
    expect(result.outputs).toMatchObject({ jobId: started.outputs.jobId, result: 'timed-out' })
    expect(sim.requests('create')).toHaveLength(0)
    expect(sim.requests('message')).toHaveLength(0)
  })

  it('waits out a 429 with Retry-After on create', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 429, retryAfter: '1' })
    const result = await run()
    expect(result.code).toBe(0)
    expect(sim.requests('create').map(r => r.status)).toEqual([429, 201])
    expect(result.log).toMatch(
      /Could not create the agent job \(HTTP 429: Simulated HTTP 429\); trying again in [12](\.\d)?s/
    )
  })

  it('fails with "rate limited until" when Retry-After outlasts the timeout', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 429, retryAfter: '7200' })
    const result = await run({ timeout: '1m' })
    expectCleanFailure(result, /The service rate limited the request: rate limited until \d{4}-/, [
      SIM_API_KEY
    ])
    expect(result.waitedMs).toBe(0)
  })

  it('keeps waiting through 5xx answers and dropped connections while polling', async () => {
    sim.planNext({ durationMs: 1500 })
    sim.inject({ route: 'get', kind: 'status', status: 503 })
    sim.inject({ route: 'get', kind: 'drop' })
    sim.inject({ route: 'get', kind: 'status', status: 500 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
    expect(
      sim
        .requests('get')
        .map(r => r.status)
        .slice(0, 3)
    ).toEqual([503, undefined, 500])
  })

  it('does not create a second job after a reset once the request was sent', async () => {
    sim.inject({ route: 'create', kind: 'drop' })
    const result = await run()
    expectCleanFailure(result, /Could not confirm the request to create the agent job/, [
      SIM_API_KEY
    ])
    expect(result.log).toMatch(
      /A job may have been created\. Look for it among the agent jobs of project proj_sim/
    )
    expect(result.log).toContain('Re-running this step may do it a second time.')
    expect(sim.requests('create')).toHaveLength(1)
    expect(result.outputs.jobId).toBe('')
  })

  it('says to check the key on 401', async () => {
    const result = await run({ 'api-key': 'mint_not_a_real_key' })
    expectCleanFailure(result, /The service refused the API key \(HTTP 401/, [
      SIM_API_KEY,
      'mint_not_a_real_key'
    ])
  })

  it('warns about a key without the mint_ prefix', async () => {
    const result = await run({ 'api-key': 'sk_live_other' })
    expect(result.log).toMatch(/::warning::The 'api-key' does not start with mint_/)
    expect(visible(result)).not.toContain('sk_live_other')
  })

  it('says to check project-id for an unknown project', async () => {
    const result = await run({ 'project-id': 'proj_unknown' })
    expectCleanFailure(result, /Project 'proj_unknown' was not found\. Check 'project-id'/, [
      SIM_API_KEY
    ])
  })

  it('reads the prompt from prompt-file', async () => {
    const result = await run(
      { prompt: '', 'prompt-file': 'maintenance.md' },
      { files: { 'maintenance.md': 'Fix broken links.\n' } }
    )
    expect(result.code).toBe(0)
    expect(sim.requests('create')[0]?.requestBody).toEqual({ prompt: 'Fix broken links.' })
  })

  it.each([
    [{ prompt: '' }, /Give the agent an instruction: set 'prompt' or 'prompt-file'/],
    [{ 'prompt-file': 'p.md' }, /Set only one of 'prompt' and 'prompt-file', not both\./],
    [{ prompt: '', 'prompt-file': 'nope.md' }, /Input 'prompt-file': no file at 'nope.md'/],
    [{ timeout: 'forever' }, /Input 'timeout' must be a duration such as 90s, 15m, 1h or 1h30m/],
    [{ 'poll-interval': '0.1s' }, /Input 'poll-interval' must be between 1s and 1h/],
    [
      { 'fail-on': 'failed,oops' },
      /Input 'fail-on' accepts a comma list of failed, archived, timeout, no-pr, or 'none'; 'oops'/
    ],
    [{ 'api-url': 'http://api.example.com' }, /Input 'api-url' must use https:\/\//],
    [{ 'project-id': 'a/b' }, /Input 'project-id' must be an ID/],
    [{ 'project-id': '..' }, /Input 'project-id' must be an ID/],
    [{ 'job-id': '../../x' }, /Input 'job-id' must be an ID/],
    [{ wait: 'maybe' }, /Input 'wait' must be 'true' or 'false'/],
    [{ 'api-key': '' }, /Input 'api-key' is required/],
    [{ 'project-id': '' }, /Input 'project-id' is required/]
  ])('refuses %j before any request', async (override, message) => {
    const result = await run(override, { files: { 'p.md': 'x' } })
    expectCleanFailure(result, message, [SIM_API_KEY])
    expect(sim.exchanges).toHaveLength(0)
    expect(result.outputs.result).toBe('')
  })

  it('says what to do when the service keeps rate limiting a create', async () => {
    sim.inject({
      route: 'create',
      kind: 'status',
      status: 429,
      retryAfter: '1',
      body: { error: 'slow down' },
      times: 10
    })
    const result = await run({ timeout: '20s' })
    expectCleanFailure(
      result,
      /Could not create the agent job: the service kept rate limiting the requests \(HTTP 429: slow down\)\. A project may start 100 agent jobs and follow-ups an hour/,
      [SIM_API_KEY]
    )
  })

  it('names api-url, the proxy and that nothing was sent when the service cannot be reached', async () => {
    const port = await closedPort()
    const result = await run({ 'api-url': `http://127.0.0.1:${port}`, timeout: '4s' })
    expectCleanFailure(
      result,
      /Could not create the agent job: cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED\. The request never reached the service, so nothing was done\. Check 'api-url' \(http:\/\/127\.0\.0\.1:\d+\/\) and, on a self-hosted runner, the proxy settings/,
      [SIM_API_KEY]
    )
  })

  it('blames api-url, not project-id, for a path the service does not serve', async () => {
    const result = await run({ 'api-url': `${sim.url}/v2` })
    expectCleanFailure(
      result,
      /The service answered HTTP 404: No route for POST \/v2\/v2\/agent\/proj_sim\/job: check 'api-url' \(http:\/\/127\.0\.0\.1:\d+\/v2\)/,
      [SIM_API_KEY]
    )
  })

  it('says a prompt of only spaces is blank', async () => {
    const result = await run({ prompt: '   ' })
    expectCleanFailure(result, /Input 'prompt' is blank/, [SIM_API_KEY])
    expect(sim.exchanges).toHaveLength(0)
  })

  it("accepts fail-on: timed-out, the word 'result' uses", async () => {
    sim.planNext({ durationMs: 60_000 })
    const result = await run({ timeout: '3s', 'fail-on': 'timed-out' })
    expect(result.code).toBe(1)
    expect(result.outputs.result).toBe('timed-out')
    expect(result.log).toMatch(/ended as 'timed-out', and 'fail-on' includes 'timeout'/)
  })

  it("stops at the runner's cancel while waiting, reporting what it knows", async () => {
    sim.planNext({ durationMs: 60_000 })
    const running = startInProcess({ inputs: inputs(), clock: new HeldClock() })
    await running.waitFor(/::group::Waiting for job/)
    running.cancel('SIGTERM')
    const result = await running.done
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ status: 'active', result: 'cancelled' })
    expect(result.outputs.jobId).toMatch(/^job_/)
    expect(result.log).toMatch(
      /::error::The run was cancelled while waiting for job job_\w+; the job may still finish on the service/
    )
    expect(result.summary).toContain('may still open a pull request')
    expect(result.summary).toContain(result.outputs.jobId)
  })
})
