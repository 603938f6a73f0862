import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectGitHub } from '../../src/github/session.js'
import { WRITE_GAP_MS } from '../../src/github/limits.js'
import { FakeGitHub } from '../simulator/fake-github.js'
import { ROOT } from '../support/run-action.js'
import { VirtualClock } from '../support/virtual-clock.js'

// src/github/limits.ts hands @octokit/plugin-throttling its documented options (the two handlers,
// retryAfterBaseValue) and, behind one cast, its internal queues made to run at once: the plugin
// would otherwise pace writes, GraphQL queries and searches on real timers shared by the whole
// process, which a run's clock cannot see. These tests fail when the plugin's shape moves under
// that wiring: its major version, a queue it stops reading from the options (a burst would take
// real seconds), or handlers it calls otherwise (no wait on the run's clock).
const HOUR = 3_600_000
const clock = new VirtualClock()
/** GitHub's clock: an hour ahead of the runner's, as a runner's clock can be off. */
let gh: FakeGitHub
beforeAll(async () => {
  gh = await FakeGitHub.start({ now: () => clock.wallNow() + HOUR })
})
afterAll(() => gh.close())
afterEach(() => gh.reset())

const where = () => ({ owner: 'acme', repo: 'docs', apiUrl: gh.url })
const VIEWER = 'query { viewer { login } }'

describe("@octokit/plugin-throttling under limits.ts's wiring", () => {
  it('is the major version the wiring was written for: a new major is read again before it is taken', () => {
    const manifest = path.join(ROOT, 'node_modules/@octokit/plugin-throttling/package.json')
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }
    // Read its dist-src/index.js and wrap-request.js: the queues `global`, `auth`, `write`,
    // `search` and `notifications` taken from `throttle` before its own, the handlers called with
    // (retryAfter, options, octokit, retryCount), the wait `retryAfter * retryAfterBaseValue`.
    expect(version.split('.')[0]).toBe('11')
  })

  it('runs a burst at once in real time: writes a second apart on the run’s clock, reads and GraphQL queries unpaced', async () => {
    const github = connectGitHub('ghs_t', where(), undefined, { clock })
    // The fake builds GitHub's GraphQL schema at its first query: not part of the burst.
    await github.graphql(VIEWER, {})
    const pauses = clock.pauses.length
    const started = performance.now()
    for (let i = 0; i < 4; i++) await github.createComment(7, `comment ${i}`)
    await Promise.all([github.createComment(7, 'a'), github.createComment(7, 'b')])
    for (let i = 0; i < 3; i++) await github.graphql(VIEWER, {})
    await github.listComments(7)
    // The plugin's own write queue would have taken five real seconds.
    expect(performance.now() - started).toBeLessThan(900)
    expect(gh.commentsOn(7)).toHaveLength(6)
    const at = gh
      .commentsOn(7)
      .map(c => c.at ?? 0)
      .slice(0, 4)
    // Sent a second apart: they reach GitHub so, give or take the network.
    for (let i = 1; i < at.length; i++)
      expect((at[i] ?? 0) - (at[i - 1] ?? 0)).toBeGreaterThanOrEqual(WRITE_GAP_MS - 100)
    // Five waits of up to a second: one before each write but the first (the two made at once
    // too, in turn); none before a read or a query.
    const waits = clock.pauses.slice(pauses)
    expect(waits).toHaveLength(5)
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(WRITE_GAP_MS)
    expect(waits.at(-1)).toBeGreaterThan(WRITE_GAP_MS / 2)
    await github.close()
  })

  it('paces each token on its own: another client’s first write does not wait', async () => {
    const one = connectGitHub('ghs_one', where(), undefined, { clock })
    const two = connectGitHub('ghs_two', where(), undefined, { clock })
    const pauses = clock.pauses.length
    await one.createComment(7, 'one')
    await two.createComment(7, 'two')
    expect(clock.pauses.slice(pauses)).toEqual([])
    await Promise.all([one.close(), two.close()])
  })

  it("waits for GraphQL's rate limit (RATE_LIMITED in a 200) until its reset by GitHub's clock, then asks again", async () => {
    gh.graphqlErrors.set('graphql', {
      errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }],
      times: 1
    })
    const github = connectGitHub('ghs_t', where(), undefined, {
      clock,
      deadline: clock.now() + 10 * 60_000
    })
    const pauses = clock.pauses.length
    expect(await github.graphql(VIEWER, {})).toEqual({ viewer: { login: 'github-actions[bot]' } })
    // The reset is a minute after GitHub's now (the fake's): the runner's clock, an hour behind,
    // would have asked for an hour and given up at the step's time limit.
    const [wait, ...more] = clock.pauses.slice(pauses)
    expect(more).toEqual([])
    expect(wait).toBeGreaterThanOrEqual(61_000)
    expect(wait).toBeLessThanOrEqual(62_000)
    expect(gh.requests.filter(r => r.path === '/graphql')).toHaveLength(2)
    await github.close()
  })

  it("waits for the REST API's primary rate limit (403, no request left) by GitHub's clock too", async () => {
    gh.failures.set('permission', { status: 403, times: 1, rateLimitReset: 30 })
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    const github = connectGitHub('ghs_t', where(), undefined, {
      clock,
      deadline: clock.now() + 10 * 60_000
    })
    const pauses = clock.pauses.length
    expect(await github.permission('alice')).toMatchObject({ permission: 'write' })
    const [wait] = clock.pauses.slice(pauses)
    expect(wait).toBeGreaterThanOrEqual(31_000)
    expect(wait).toBeLessThanOrEqual(32_000)
    await github.close()
  })

  it('sends a request, and a failed one again, without a timer’s turn: no Bottleneck queues them', async () => {
    // Bottleneck's turns are real timers even at a wait of 0 (about 4 ms a request for each queue):
    // @octokit/plugin-retry's Bottleneck per request, and the throttling plugin's own retry queue
    // when it does not take `retryLimiter`. The 15 s time limits (and undici's) are longer.
    const github = connectGitHub('ghs_t', where(), undefined, { clock })
    await github.graphql(VIEWER, {})
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    gh.failures.set('permission', { status: 502, times: 1 })
    gh.failures.set('graphql', { status: 429, times: 1, retryAfter: 1 })
    const timers = vi.spyOn(globalThis, 'setTimeout')
    await github.permission('alice')
    await github.graphql(VIEWER, {})
    await github.createComment(7, 'one')
    const short = timers.mock.calls.filter(([, ms]) => (ms ?? 0) < 1000)
    timers.mockRestore()
    expect(short).toEqual([])
    expect(gh.requests.filter(r => r.path.endsWith('/permission'))).toHaveLength(2)
    expect(gh.requests.filter(r => r.path === '/graphql')).toHaveLength(3)
    await github.close()
  })
})
