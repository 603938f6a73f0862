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

  describe('a follow-up, which the service processes asynchronously', () => {
    const followUp = async (plan: Parameters<Simulator['planNext']>[0], extra = {}) => {
      const first = await run()
      expect(first.outputs.result).toBe('pr-opened')
      sim.exchanges.length = 0
      sim.planNext(plan)
      const jobId = first.outputs.jobId as string
      const result = await run({ 'job-id': jobId, prompt: 'Also add a Python example', ...extra })
      const statuses = sim.requests('get').map(r => (r.responseBody as { status: string }).status)
      return { first, result, jobId, statuses }
    }

    it("reports the follow-up's outcome once the job was seen working on it", async () => {
      // The job shows its old outcome (completed, with a pull request) for 5 s, then works, then fails.
      const { result, jobId, statuses } = await followUp({
        pickupMs: 5000,
        durationMs: 3000,
        finalStatus: 'failed'
      })
      expect(result.outputs).toMatchObject({ jobId, result: 'failed', status: 'failed' })
      expect(statuses[0]).toBe('completed')
      expect(statuses).toContain('active')
      expect(result.log).toMatch(
        new RegExp(
          `Job ${jobId} is working on the follow-up \\(seen active \\d+s after the message\\)\\.`
        )
      )
      expect(result.summary).toContain(
        `Job \`${jobId}\` was seen working on the follow-up (active after the message), so this outcome includes it.`
      )
    })

    it('reports the job as it stands after 60 s when it is never seen working on it, and says so', async () => {
      const { first, result, jobId } = await followUp({ pickupMs: Infinity })
      expect(result.code).toBe(0)
      expect(result.outputs).toMatchObject({ result: 'pr-opened', prLink: first.outputs.prLink })
      expect(result.log).toContain(
        `::notice title=Mintlify agent::Job ${jobId} was not seen working on the follow-up within 1m of the message; reporting it as it stands (completed).`
      )
      expect(result.summary).toContain(
        `Job \`${jobId}\` was not seen working on the follow-up within 1m of the message: this is its status as it stands`
      )
      // The grace period, not the time limit: on the virtual clock, and in its pauses alone, which
      // the machine's load does not lengthen.
      expect(result.durationMs).toBeGreaterThanOrEqual(60_000)
      expect(result.waitedMs).toBeLessThan(75_000)
    })

    it('checks at the end of the grace period even with a long poll interval', async () => {
      const { result } = await followUp({ pickupMs: Infinity }, { 'poll-interval': '1h' })
      expect(result.outputs.result).toBe('pr-opened')
      expect(result.waitedMs).toBeLessThan(75_000)
      expect(sim.requests('get')).toHaveLength(2)
    })

    it('reports started, not the old outcome, with wait: false', async () => {
      const { result, jobId } = await followUp({ pickupMs: 5000 }, { wait: 'false' })
      expect(result.code).toBe(0)
      expect(result.outputs).toMatchObject({ jobId, result: 'started' })
      expect(sim.requests('get')).toHaveLength(0)
      expect(result.log).toContain(
        `Sent the follow-up to job ${jobId}; not waiting for it (wait: false), so its outcome is not known yet.`
      )
      expect(result.summary).toContain('🚀 The agent job started')
      expect(result.summary).toContain("the job's status does not show it yet")
    })

    it('times out, saying the job was not yet seen on the follow-up', async () => {
      const { result, jobId } = await followUp({ pickupMs: Infinity }, { timeout: '20s' })
      expect(result.code).toBe(1)
      expect(result.outputs).toMatchObject({ result: 'timed-out', status: 'completed' })
      expect(result.log).toContain(
        `::warning::Stopped waiting for job ${jobId} after 20s; it had not been seen working on the follow-up (its status was completed).`
      )
      expect(result.summary).toContain(
        'had not been seen working on the follow-up when waiting stopped'
      )
    })
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

  it.each([
    ['spaces', 'laborum est dolore'],
    ['path and query characters', 'a/b?c#d%2e..'],
    ['non-ASCII letters', 'tâche-été_1']
  ])(
    'takes a job id with %s, as the document allows, encoding it in every path',
    async (_name, id) => {
      sim.planNext({ id, durationMs: 60_000 })
      const started = await run({ wait: 'false' })
      expect(started.code).toBe(0)
      expect(started.outputs).toMatchObject({ jobId: id, result: 'started' })
      // Given back as `job-id`, with a follow-up, then waited for.
      const followed = await run({ 'job-id': id, prompt: 'Also add a Python example' })
      expect(followed.code).toBe(0)
      expect(followed.outputs.jobId).toBe(id)
      const encoded = `/v2/agent/${SIM_PROJECT}/job/${encodeURIComponent(id)}`
      expect(sim.requests('message').map(r => r.path)).toEqual([`${encoded}/message`])
      expect(new Set(sim.requests('get').map(r => r.path))).toEqual(new Set([encoded]))
      expect(sim.jobs.get(id)?.messages).toEqual([
        'Document the retry options',
        'Also add a Python example'
      ])
    }
  )

  it('says to check the key on 401, and that keys expire', async () => {
    const result = await run({ 'api-key': 'mint_not_a_real_key' })
    expectCleanFailure(
      result,
      /The service refused the API key \(HTTP 401: Invalid or missing API key\)\. If the key worked before, it has most likely expired: Mintlify keys expire after 90 days/,
      [SIM_API_KEY, 'mint_not_a_real_key']
    )
    expect(result.log).not.toContain('earlier in this run')
    expect(result.log).not.toMatch(/it starts with mint_\)/)
  })

  it('says the key stopped working when the service refuses it after accepting it', async () => {
    sim.planNext({ durationMs: 60_000 })
    sim.inject({ route: 'get', kind: 'status', status: 401, times: 100 })
    const result = await run()
    expectCleanFailure(
      result,
      /The service refused the API key \(HTTP 401: Simulated HTTP 401\)\. The service accepted this key earlier in this run\. If the key worked before, it has most likely expired: Mintlify keys expire after 90 days/,
      [SIM_API_KEY]
    )
    expect(result.outputs.jobId).toMatch(/^job_/)
  })

  it('says a 403 on create may be a read-only key or an IP allowlist', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 403, body: { error: 'Forbidden' } })
    const result = await run()
    expectCleanFailure(
      result,
      /The service refused the request to create the agent job with this API key \(HTTP 403: Forbidden\)\. The key is valid, but the key may be read-only \(read-only keys can read but not create jobs or send follow-ups\), or the runner's address may be outside the key's IP allowlist/,
      [SIM_API_KEY]
    )
    expect(sim.requests('create')).toHaveLength(1)
  })

  it.each([
    ['mint_dsc_0123456789abcdef', 'an assistant API key', 'mint_dsc_'],
    ['mint_us_0123456789abcdef', 'an index API key', 'mint_us_']
  ])('refuses %s before any request, naming the kind of key', async (key, kind, prefix) => {
    const result = await run({ 'api-key': key })
    expectCleanFailure(
      result,
      new RegExp(
        `Input 'api-key' holds ${kind} \\(it starts with ${prefix}\\), which cannot use the admin API this action calls\\. Create an admin API key`
      ),
      [key, SIM_API_KEY]
    )
    expect(result.log).not.toContain('does not start with mint_')
    expect(sim.exchanges).toHaveLength(0)
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
    [{ timeout: '45' }, /Input 'timeout' needs a unit: write '45m' for 45 minutes or '45s'/],
    [{ 'poll-interval': '30' }, /Input 'poll-interval' needs a unit: write '30m' .* or '30s'/],
    [{ 'poll-interval': '0.1s' }, /Input 'poll-interval' must be between 1s and 1h/],
    [
      { 'fail-on': 'failed,oops' },
      /Input 'fail-on' accepts a comma list of failed, archived, timeout, no-pr, or 'none'; 'oops'/
    ],
    [{ 'api-url': 'http://api.example.com' }, /Input 'api-url' must use https:\/\//],
    [{ 'project-id': '..' }, /Input 'project-id' must be an ID/],
    [{ 'project-id': 'x'.repeat(201) }, /Input 'project-id' must be an ID .*1 to 200 characters/],
    [{ 'job-id': '.' }, /Input 'job-id' must be an ID/],
    [{ 'job-id': 'job\u0000x' }, /Input 'job-id' must be an ID .*got "job\\u0000x"/],
    [{ 'job-id': 'job\u202Ex' }, /Input 'job-id' must be an ID .*no control characters/],
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
