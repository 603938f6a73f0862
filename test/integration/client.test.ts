import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createJob, getJob, sendMessage } from '../../src/mintlify/agent-jobs.js'
import { ApiClient } from '../../src/mintlify/client.js'
import {
  AnswerTooLargeError,
  AmbiguousWriteError,
  AuthError,
  NotFoundError,
  RateLimitError
} from '../../src/mintlify/errors.js'
import { HttpSession } from '../../src/mintlify/http.js'
import { HttpError } from '../../src/runner/connections.js'
import { USER_AGENT } from '../../src/runner/runner.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { closedPort, simClient } from '../support/clients.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * Connections whose name lookup fails as getaddrinfo's does for a name that does not exist: always,
 * or, over a real session, for the `failing` requests after the first.
 */
class NoSuchName implements Pick<HttpSession, 'send' | 'close'> {
  constructor(
    private readonly hostname: string,
    private readonly lookups: string[],
    private readonly real?: HttpSession,
    private failing = Infinity
  ) {}
  send(req: Parameters<HttpSession['send']>[0]): ReturnType<HttpSession['send']> {
    this.lookups.push(req.url.hostname)
    if (this.real && (this.lookups.length === 1 || this.failing-- <= 0)) return this.real.send(req)
    const cause = Object.assign(new Error(`getaddrinfo ENOTFOUND ${this.hostname}`), {
      code: 'ENOTFOUND',
      hostname: this.hostname
    })
    return Promise.reject(new HttpError(cause.message, 'ENOTFOUND', 'no', { cause }))
  }
  async close(): Promise<void> {
    await this.real?.close()
  }
}

// The client's waits (Retry-After, backoff) and the jobs' progress run on one virtual clock.
let clock: VirtualClock
let sim: Simulator
let client: ApiClient
beforeEach(async () => {
  clock = new VirtualClock()
  sim = await Simulator.start({ job: { durationMs: 200 }, now: clock.wallNow })
  client = simClient(sim, { clock })
})
const inSeconds = (s: number): number => clock.now() + s * 1000
afterEach(async () => {
  await client.close()
  await sim.close()
})

describe('the API client against the simulator', () => {
  it('creates a job with bearer auth, JSON and a User-Agent naming the action', async () => {
    const job = await createJob(client, SIM_PROJECT, 'Document retries', inSeconds(10))
    expect(job).toMatchObject({ status: 'active', prLink: null })
    const [request] = sim.requests('create')
    expect(request?.headers.authorization).toBe(`Bearer ${SIM_API_KEY}`)
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.headers['user-agent']).toBe(USER_AGENT)
    expect(request?.requestBody).toEqual({ prompt: 'Document retries' })
    expect(request?.status).toBe(201)
  })

  it('encodes every path segment and refuses dot segments', async () => {
    await expect(getJob(client, SIM_PROJECT, 'a/b?c#d', inSeconds(5))).rejects.toBeInstanceOf(
      NotFoundError
    )
    expect(sim.exchanges.at(-1)?.path).toBe(`/v2/agent/${SIM_PROJECT}/job/a%2Fb%3Fc%23d`)
    await expect(getJob(client, '..', 'x', inSeconds(5))).rejects.toThrow(/segment '\.\.'/)
  })

  it('retries a create refused with 429 after the Retry-After wait', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 429, retryAfter: '1' })
    const job = await createJob(client, SIM_PROJECT, 'x', inSeconds(10))
    expect(job.id).toMatch(/^job_/)
    expect(clock.pauses).toEqual([1000])
    expect(sim.requests('create').map(r => r.status)).toEqual([429, 201])
  })

  it('fails at once when Retry-After runs past the deadline', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 429, retryAfter: '3600' })
    const error = await createJob(client, SIM_PROJECT, 'x', inSeconds(5)).catch(e => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.message).toMatch(/rate limited until \d{4}-\d\d-\d\dT/)
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('retries a create refused with 503', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 503, times: 2 })
    await createJob(client, SIM_PROJECT, 'x', inSeconds(10))
    expect(sim.requests('create').map(r => r.status)).toEqual([503, 503, 201])
  })

  it.each([500, 502, 504])(
    'does not repeat a create answered %d: the job may exist',
    async status => {
      sim.inject({ route: 'create', kind: 'status', status })
      const error = await createJob(client, SIM_PROJECT, 'x', inSeconds(10)).catch(e => e)
      expect(error).toBeInstanceOf(AmbiguousWriteError)
      expect(error.message).toMatch(/may have been created/)
      expect(error.message).toMatch(/Re-running this step may do it a second time/)
      expect(sim.requests('create')).toHaveLength(1)
    }
  )

  it('does not repeat a create whose connection dropped after sending', async () => {
    sim.inject({ route: 'create', kind: 'drop' })
    const error = await createJob(client, SIM_PROJECT, 'x', inSeconds(10)).catch(e => e)
    expect(error).toBeInstanceOf(AmbiguousWriteError)
    expect(error.message).toContain(`agent jobs of project ${SIM_PROJECT}`)
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('does not repeat a create that got no answer in time', async () => {
    const slow = simClient(sim, { requestTimeoutMs: 200, clock })
    sim.inject({ route: 'create', kind: 'delay', ms: Infinity })
    const error = await createJob(slow, SIM_PROJECT, 'x', inSeconds(10)).catch(e => e)
    await slow.close()
    expect(error).toBeInstanceOf(AmbiguousWriteError)
    expect(error.message).toMatch(/no answer within 0.2s/)
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('does not repeat a create whose 201 body is unreadable', async () => {
    sim.inject({ route: 'create', kind: 'malformed' })
    await expect(createJob(client, SIM_PROJECT, 'x', inSeconds(10))).rejects.toBeInstanceOf(
      AmbiguousWriteError
    )
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('retries a create when the connection is refused, then says it cannot reach the service', async () => {
    const port = await closedPort()
    const refused = simClient(`http://127.0.0.1:${port}`, { clock })
    const error = await createJob(refused, SIM_PROJECT, 'x', inSeconds(10)).catch(e => e)
    await refused.close()
    expect(error.message).toMatch(/cannot reach 127.0.0.1:\d+: ECONNREFUSED/)
    expect(error).not.toBeInstanceOf(AmbiguousWriteError)
  })

  it('fails at once when the service’s name does not resolve, before the service ever answered', async () => {
    // The resolver's answer for a name that does not exist, as getaddrinfo gives it through undici.
    const typo = new URL('https://api.mintlfy.com')
    const lookups: string[] = []
    const unresolved = new NoSuchName(typo.hostname, lookups)
    const mistyped = new ApiClient({ baseUrl: typo, apiKey: SIM_API_KEY, clock, http: unresolved })
    const error = await getJob(mistyped, SIM_PROJECT, 'job_1', inSeconds(600)).catch(e => e)
    expect(error.message).toBe(
      "Could not read the status of job job_1: cannot reach api.mintlfy.com: the name api.mintlfy.com does not resolve (ENOTFOUND). Check 'api-url' (https://api.mintlfy.com/) and, on a self-hosted runner, the proxy settings (HTTPS_PROXY, NO_PROXY)."
    )
    // One attempt and no wait: the ten minutes left were not spent on a name that does not exist.
    expect(lookups).toHaveLength(1)
    expect(clock.pauses).toEqual([])
  })

  it('waits out a name that stops resolving once the service has answered: an outage', async () => {
    const real = new HttpSession({ maxResponseBytes: 1 << 20 })
    const lookups: string[] = []
    const flaky = new NoSuchName('127.0.0.1', lookups, real, 2)
    const resolving = simClient(sim, { clock, http: flaky })
    const job = await createJob(resolving, SIM_PROJECT, 'x', inSeconds(60))
    const read = await getJob(resolving, SIM_PROJECT, job.id, inSeconds(60))
    await resolving.close()
    expect(read.id).toBe(job.id)
    // The create went through, the next read failed twice to resolve, and its third try answered.
    expect(lookups).toHaveLength(4)
    expect(clock.pauses).toHaveLength(2)
  })

  it('retries status reads through 5xx, drops, slow and malformed answers', async () => {
    const job = await createJob(client, SIM_PROJECT, 'x', inSeconds(10))
    sim.inject({ route: 'get', kind: 'status', status: 500 })
    sim.inject({ route: 'get', kind: 'status', status: 502, times: 1 })
    sim.inject({ route: 'get', kind: 'drop' })
    sim.inject({ route: 'get', kind: 'malformed' })
    sim.inject({ route: 'get', kind: 'status', status: 408 })
    const read = await getJob(client, SIM_PROJECT, job.id, inSeconds(10))
    expect(read.id).toBe(job.id)
    expect(sim.requests('get').map(r => r.status)).toEqual([500, 502, undefined, 200, 408, 200])
  })

  it('retries a slow status read', async () => {
    const job = await createJob(client, SIM_PROJECT, 'x', inSeconds(10))
    const slow = simClient(sim, { requestTimeoutMs: 150, clock })
    sim.inject({ route: 'get', kind: 'delay', ms: Infinity })
    await expect(getJob(slow, SIM_PROJECT, job.id, inSeconds(10))).resolves.toMatchObject({
      id: job.id
    })
    await slow.close()
    expect(sim.requests('get')).toHaveLength(2)
  })

  it('says to check the key on 401, without printing it', async () => {
    const bad = simClient(sim, { apiKey: 'mint_wrong_key', clock })
    const error = await createJob(bad, SIM_PROJECT, 'x', inSeconds(5)).catch(e => e)
    await bad.close()
    expect(error).toBeInstanceOf(AuthError)
    expect(error.message).toMatch(/keys expire after 90 days.*Check 'api-key'/)
    expect(error.message).not.toContain('mint_wrong_key')
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('says to check project-id for an unknown project', async () => {
    const error = await createJob(client, 'proj_nope', 'x', inSeconds(5)).catch(e => e)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toMatch(/Project 'proj_nope' was not found. Check 'project-id'/)
  })

  it("passes the service's 400 message on and does not retry", async () => {
    sim.inject({
      route: 'message',
      kind: 'status',
      status: 400,
      body: { error: 'prompt too long' }
    })
    const job = await createJob(client, SIM_PROJECT, 'x', inSeconds(5))
    const error = await sendMessage(client, SIM_PROJECT, job.id, 'more', inSeconds(5)).catch(e => e)
    expect(error.message).toBe(
      `The service rejected the request to send the follow-up message to job ${job.id} (HTTP 400: prompt too long).`
    )
    expect(sim.requests('message')).toHaveLength(1)
  })

  it('never repeats the key even when the service echoes it', async () => {
    sim.inject({
      route: 'get',
      kind: 'status',
      status: 400,
      body: { error: `bad token ${SIM_API_KEY}` }
    })
    const error = await getJob(client, SIM_PROJECT, 'job_x', inSeconds(5)).catch(e => e)
    expect(error.message).toContain('bad token ***')
    expect(error.message).not.toContain(SIM_API_KEY)
  })

  it('refuses an answer larger than the cap', async () => {
    const capped = simClient(sim, { maxResponseBytes: 10_000, clock })
    sim.inject({ route: 'create', kind: 'huge', bytes: 50_000 })
    const error = await createJob(capped, SIM_PROJECT, 'x', inSeconds(5)).catch(e => e)
    await capped.close()
    expect(error.message).toMatch(/larger than 10000 bytes/)
  })

  it('does not ask again for a read whose answer is larger than the cap: it would be as large', async () => {
    const capped = simClient(sim, { maxResponseBytes: 10_000 })
    sim.inject({ route: 'get', kind: 'huge', bytes: 50_000, times: 5 })
    const error = await getJob(capped, SIM_PROJECT, 'job_x', inSeconds(30)).catch(e => e)
    await capped.close()
    expect(error).toBeInstanceOf(AnswerTooLargeError)
    expect(error.message).toMatch(
      /^The service's answer to the request to .* is larger than 10000 bytes, more than this action reads\.$/
    )
    expect(sim.requests('get')).toHaveLength(1)
  })

  it('sends a follow-up that restarts the job', async () => {
    const job = await createJob(client, SIM_PROJECT, 'x', inSeconds(5))
    await clock.sleep(250)
    expect((await getJob(client, SIM_PROJECT, job.id, inSeconds(5))).status).toBe('completed')
    const after = await sendMessage(client, SIM_PROJECT, job.id, 'also add Python', inSeconds(5))
    // Processed asynchronously: the answer shows the job as it was; the next read, at work again.
    expect(after).toMatchObject({ id: job.id, status: 'completed' })
    expect((await getJob(client, SIM_PROJECT, job.id, inSeconds(5))).status).toBe('active')
    expect(sim.requests('message')[0]?.requestBody).toEqual({ prompt: 'also add Python' })
  })
})
