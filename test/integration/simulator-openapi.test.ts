import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createJob, getJob, sendMessage } from '../../src/mintlify/agent-jobs.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { inSeconds, simClient } from '../support/clients.js'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  type OpenApiValidator,
  SHARED_SPEC_DIR,
  SPEC_DIR,
  openApiValidator
} from '../support/openapi.js'

let validator: OpenApiValidator
let sim: Simulator
beforeAll(async () => {
  validator = await openApiValidator()
  sim = await Simulator.start({ job: { durationMs: 100 }, visitors: 600, agentLimitPerHour: 4 })
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
    await new Promise(resolve => setTimeout(resolve, 150))
    await getJob(client, SIM_PROJECT, done.id, deadline)
    await getJob(client, SIM_PROJECT, failed.id, deadline)
    await sendMessage(client, SIM_PROJECT, done.id, 'more', deadline)
    await getJob(client, SIM_PROJECT, done.id, deadline)
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
      await raw('GET', `/v1/analytics/${SIM_PROJECT}/visitors?dateFrom=yesterday`) // 400
    ]
    expect(statuses).toEqual([400, 401, 404, 404, 429, 200, 200, 400, 400])

    const seen = new Set(sim.exchanges.map(e => `${e.route} ${e.status}`))
    for (const expected of [
      'create 201',
      'get 200',
      'message 200',
      'create 429',
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
  })
})
