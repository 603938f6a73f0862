import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAccess, createJob, getJob, sendMessage } from '../../src/mintlify/agent-jobs.js'
import {
  getAssistantPage,
  getFeedbackByPage,
  getFeedbackPage,
  getSearchesPage
} from '../../src/mintlify/analytics-gaps.js'
import { RequestCap } from '../../src/mintlify/request-cap.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { inSeconds, simClient } from '../support/clients.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  type OpenApiValidator,
  SHARED_SPEC_DIR,
  SPEC_DIR,
  openApiValidator
} from '../support/openapi.js'

// The simulator's jobs run on a virtual clock: the test moves it on past a job's end.
const clock = new VirtualClock()
let validator: OpenApiValidator
let sim: Simulator
beforeAll(async () => {
  validator = await openApiValidator()
  sim = await Simulator.start({
    job: { durationMs: 100 },
    visitors: 600,
    agentLimitPerHour: 4,
    now: clock.wallNow
  })
})
afterAll(() => sim.close())

async function raw(
  method: string,
  path: string,
  body?: unknown,
  key = SIM_API_KEY
): Promise<number> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  await res.arrayBuffer()
  return res.status
}

/** A cursor the simulator gave for `route` in this test's traffic. */
const cursorOf = (sim: Simulator, route: string): string | undefined =>
  sim.exchanges
    .filter(e => e.route === route)
    .map(e => (e.responseBody as { nextCursor?: string | null } | undefined)?.nextCursor)
    .find((c): c is string => typeof c === 'string')

describe('the simulator speaks the published OpenAPI documents', () => {
  it.runIf(existsSync(SHARED_SPEC_DIR))(
    'validates against the same documents as shared/spec',
    () => {
      for (const file of ['admin-openapi.json', 'analytics.openapi.json']) {
        expect(readFileSync(path.join(SPEC_DIR, file), 'utf8')).toBe(
          readFileSync(path.join(SHARED_SPEC_DIR, file), 'utf8')
        )
      }
    }
  )

  it('answers every operation, success and error, in the documented shapes', async () => {
    const client = simClient(sim)
    const deadline = inSeconds(10)
    const done = await createJob(client, SIM_PROJECT, 'one', deadline)
    await createJob(client, SIM_PROJECT, 'two', deadline)
    sim.planNext({ finalStatus: 'failed', durationMs: 0 })
    const failed = await createJob(client, SIM_PROJECT, 'three', deadline)
    await clock.sleep(150)
    await getJob(client, SIM_PROJECT, done.id, deadline)
    await getJob(client, SIM_PROJECT, failed.id, deadline)
    await sendMessage(client, SIM_PROJECT, done.id, 'more', deadline)
    await getJob(client, SIM_PROJECT, done.id, deadline)
    await checkAccess(client, SIM_PROJECT, deadline)
    await client.close()

    const statuses = [
      await raw('POST', `/v2/agent/${SIM_PROJECT}/job`, { prompt: '' }), // 400
      await raw('POST', `/v2/agent/${SIM_PROJECT}/job`, { prompt: 'x' }, 'mint_wrong'), // 401
      await raw('GET', `/v2/agent/${SIM_PROJECT}/job/job_missing`), // 404
      await raw('POST', `/v2/agent/${SIM_PROJECT}/job/job_missing/message`, { prompt: 'x' }), // 404
      await raw('POST', `/v2/agent/${SIM_PROJECT}/job`, { prompt: 'over the limit' }), // 429
      await raw(
        'GET',
        `/v1/analytics/${SIM_PROJECT}/visitors?limit=250&offset=0&dateFrom=2026-01-01&dateTo=2026-02-01T00:00:00Z`
      ),
      await raw('GET', `/v1/analytics/${SIM_PROJECT}/visitors?limit=250&offset=500`),
      await raw('GET', `/v1/analytics/${SIM_PROJECT}/visitors?limit=0`), // 400
      await raw('GET', `/v1/analytics/${SIM_PROJECT}/visitors?dateFrom=yesterday`), // 400
      await raw('GET', `/v1/agent/${SIM_PROJECT}/jobs?skip=1&take=2`),
      await raw('GET', `/v1/agent/${SIM_PROJECT}/jobs`, undefined, 'mint_wrong') // 401
    ]
    expect(statuses).toEqual([400, 401, 404, 404, 429, 200, 200, 400, 400, 200, 401])

    const seen = new Set(sim.exchanges.map(e => `${e.route} ${e.status}`))
    for (const expected of [
      'create 201',
      'get 200',
      'message 200',
      'create 429',
      'list 200',
      'visitors 200',
      'visitors 400'
    ]) {
      expect(seen).toContain(expected)
    }
    const problems = sim.exchanges.flatMap(e =>
      validator.problems(e).map(p => `${e.method} ${e.path}: ${p}`)
    )
    expect(problems).toEqual([])
  })

  it('answers the docs-gaps operations, every page and every refusal, in the documented shapes', async () => {
    sim.reset()
    const client = simClient(sim)
    const limits = { deadline: inSeconds(10), cap: new RequestCap(100) }
    const range = { dateFrom: '2026-11-14', dateTo: '2026-11-21T00:00:00Z' }
    const pages = { searches: 0, feedback: 0, assistant: 0 }
    let cursor: string | undefined
    do {
      const page = await getSearchesPage(
        client,
        SIM_PROJECT,
        { ...range, limit: 100, cursor },
        limits
      )
      cursor = page.nextCursor ?? undefined
      pages.searches++
    } while (cursor)
    await getFeedbackByPage(
      client,
      SIM_PROJECT,
      { ...range, limit: 5, source: 'contextual' },
      limits
    )
    await getFeedbackByPage(client, SIM_PROJECT, { limit: 100 }, limits)
    do {
      const page = await getFeedbackPage(client, SIM_PROJECT, { limit: 100, cursor }, limits)
      cursor = page.nextCursor ?? undefined
      pages.feedback++
    } while (cursor)
    const query = { limit: 100, source: 'contextual', status: 'pending,in_progress' }
    await getFeedbackPage(client, SIM_PROJECT, query, limits)
    do {
      const page = await getAssistantPage(client, SIM_PROJECT, { limit: 500, cursor }, limits)
      cursor = page.nextCursor ?? undefined
      pages.assistant++
    } while (cursor)
    await client.close()
    expect(pages).toEqual({ searches: 3, feedback: 4, assistant: 3 })

    const base = `/v1/analytics/${SIM_PROJECT}`
    // A service that ignores the cursor still answers in the documented shape.
    for (const route of ['searches', 'feedback', 'assistant'] as const) {
      sim.inject({ route, kind: 'ignore-cursor' })
      const cursor =
        route === 'assistant' ? '01KAKGK0000000000000000000' : (cursorOf(sim, route) ?? 'x')
      expect(await raw('GET', `${base}/${route}?cursor=${cursor}`)).toBe(200)
    }
    const statuses = [
      await raw('GET', `${base}/searches?limit=101`),
      await raw('GET', `${base}/searches?cursor=not-a-cursor`),
      await raw('GET', `${base}/feedback?source=email`),
      await raw('GET', `${base}/feedback?status=open`),
      await raw('GET', `${base}/feedback/by-page?dateFrom=last-week`),
      await raw('GET', `${base}/assistant?cursor=job_1`),
      await raw('GET', `${base}/assistant?limit=1001`),
      await raw('GET', `${base}/assistant?cursor=01KAKGK0000000000000000000`)
    ]
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 200])
    const seen = new Set(sim.exchanges.map(e => `${e.route} ${e.status}`))
    for (const route of ['searches', 'feedback', 'feedback-by-page', 'assistant'])
      for (const status of [200, 400]) expect(seen).toContain(`${route} ${status}`)
    const problems = sim.exchanges.flatMap(e =>
      validator.problems(e).map(p => `${e.method} ${e.path}: ${p}`)
    )
    expect(problems).toEqual([])
  })

  it('serves jobs with the opaque ids the document allows, in valid traffic', async () => {
    const odd = await Simulator.start({ job: { durationMs: 0 }, projects: ['proj odd/1'] })
    const client = simClient(odd)
    const deadline = inSeconds(10)
    for (const id of ['laborum est dolore', 'a/b?c#d%2e', 'tâche été']) {
      odd.planNext({ id })
      const job = await createJob(client, 'proj odd/1', 'one', deadline)
      expect(job.id).toBe(id)
      expect((await getJob(client, 'proj odd/1', id, deadline)).id).toBe(id)
      await sendMessage(client, 'proj odd/1', id, 'more', deadline)
    }
    await client.close()
    await odd.close()
    expect(odd.exchanges.map(e => `${e.route} ${e.status}`)).toEqual(
      Array(3).fill(['create 201', 'get 200', 'message 200']).flat()
    )
    const problems = odd.exchanges.flatMap(e =>
      validator.problems(e).map(p => `${e.method} ${e.path}: ${p}`)
    )
    expect(problems).toEqual([])
  })

  it('catches an answer that breaks the documents (the check can fail)', () => {
    const exchange = {
      route: 'get' as const,
      method: 'GET',
      path: `/v2/agent/${SIM_PROJECT}/job/job_1`,
      query: {},
      headers: {},
      requestBody: undefined,
      status: 200,
      responseBody: { id: 'job_1', status: 'queued', prLink: 42 },
      at: 0
    }
    expect(validator.problems(exchange).length).toBeGreaterThan(0)
    expect(
      validator.problems({ ...exchange, status: 401, responseBody: { message: 'no' } })
    ).toEqual(["response 401 without a string 'error'"])
    expect(
      validator.problems({
        ...exchange,
        route: 'visitors',
        path: `/v1/analytics/${SIM_PROJECT}/visitors`,
        responseBody: { totals: { human: 1, ai: 1 }, visitors: [], hasMore: false }
      }).length
    ).toBeGreaterThan(0)
    const gaps = { ...exchange, query: {}, status: 200 }
    for (const [route, responseBody] of [
      [
        'searches',
        { searches: [{ searchQuery: 'x', hits: 1 }], totalSearches: 1, nextCursor: null }
      ],
      ['feedback', { feedback: [{ id: '1', path: '/a' }], nextCursor: null, hasMore: false }],
      ['feedback/by-page', { feedback: [{ path: '/a', thumbsDown: '2' }], hasMore: false }],
      ['assistant', { conversations: [], nextCursor: null }]
    ] as const) {
      const path = `/v1/analytics/${SIM_PROJECT}/${route}`
      expect(validator.problems({ ...gaps, path, responseBody }).length).toBeGreaterThan(0)
    }
  })
})
