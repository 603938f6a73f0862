import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  getAssistantPage,
  getFeedbackByPage,
  getFeedbackPage,
  getSearchesPage
} from '../../src/mintlify/analytics-gaps.js'
import { RequestCap } from '../../src/mintlify/request-cap.js'
import { RequestCapReachedError } from '../../src/mintlify/errors.js'
import { generateGapsData } from '../simulator/analytics-data.js'
import { SIM_PROJECT, Simulator } from '../simulator/server.js'
import { inSeconds, simClient } from '../support/clients.js'

let sim: Simulator
const data = generateGapsData({ searches: 5, feedback: 12, conversations: 5 })
beforeAll(async () => {
  sim = await Simulator.start({ gaps: data, analyticsLimitPerHour: 10_000 })
})
afterAll(() => sim.close())
beforeEach(() => {
  sim.reset()
})

const limits = (max = 10) => ({ deadline: inSeconds(10), cap: new RequestCap(max) })
const answer = (body: unknown) => ({ kind: 'status' as const, status: 200, body })

const CASES = [
  [
    'searches',
    { searchQuery: 'x', hits: 1, ctr: 0, topClickedPage: null },
    "'lastSearchedAt' is missing"
  ],
  [
    'feedback-by-page',
    { path: '/a', thumbsUp: 1, thumbsDown: null, code: 0, total: 1 },
    "'thumbsDown' has the wrong type or value (null)"
  ],
  [
    'feedback',
    {
      id: '1',
      path: '/a',
      comment: null,
      createdAt: null,
      source: 'contextual',
      status: 'pending',
      helpful: false
    },
    "'contact' is missing"
  ],
  [
    'feedback',
    { id: '1', path: '/a', comment: null, createdAt: null, source: 'email', status: 'pending' },
    "'source' has the wrong type or value (a text)"
  ],
  [
    'assistant',
    {
      id: '1',
      timestamp: 't',
      query: 'q',
      response: 'r',
      sources: [{ title: 't' }],
      resolutionStatus: 'unanswered',
      queryCategory: null,
      pageUrl: null
    },
    "'sources' has the wrong type or value (an array)"
  ],
  [
    'assistant',
    {
      id: '1',
      timestamp: 't',
      query: 'q',
      response: 'r',
      responseType: 'maybe',
      sources: [],
      resolutionStatus: 'unanswered',
      queryCategory: null,
      pageUrl: null
    },
    "'responseType' has the wrong type or value (a text)"
  ]
] as const

describe('the docs-gaps analytics operations', () => {
  it('keep every documented field but a reader contact address or the assistant answer', async () => {
    const client = simClient(sim)
    const feedback = await getFeedbackPage(client, SIM_PROJECT, { limit: 100 }, limits())
    const contextual = feedback.feedback.find(f => f.source === 'contextual')
    expect(Object.keys(contextual ?? {}).sort()).toEqual(
      ['comment', 'createdAt', 'helpful', 'id', 'path', 'source', 'status'].sort()
    )
    expect(JSON.stringify(feedback)).not.toMatch(/@example\.com/)
    expect(feedback.feedback.find(f => f.source === 'code_snippet')?.helpful).toBeNull()
    const assistant = await getAssistantPage(client, SIM_PROJECT, { limit: 100 }, limits())
    expect(Object.keys(assistant.conversations[0] ?? {}).sort()).toEqual(
      [
        'id',
        'pageUrl',
        'query',
        'queryCategory',
        'resolutionStatus',
        'responseType',
        'timestamp'
      ].sort()
    )
    expect(JSON.stringify(assistant)).not.toContain('ASSISTANT-REPLY')
    // Optional in the document: a turn without it is an answer.
    expect(assistant.conversations[0]?.responseType).toBe('answer')
    await client.close()
  })

  const readers = (client: ReturnType<typeof simClient>) => ({
    searches: () => getSearchesPage(client, SIM_PROJECT, { limit: 1 }, limits()),
    feedback: () => getFeedbackPage(client, SIM_PROJECT, { limit: 1 }, limits()),
    'feedback-by-page': () => getFeedbackByPage(client, SIM_PROJECT, { limit: 1 }, limits()),
    assistant: () => getAssistantPage(client, SIM_PROJECT, { limit: 1 }, limits())
  })

  it.each([
    [
      'searches',
      { searches: [], totalSearches: -1, nextCursor: null },
      /'totalSearches' has the wrong type or value \(-1\)/
    ],
    [
      'searches',
      { searches: [], totalSearches: 1, nextCursor: 7 },
      /'nextCursor' has the wrong type or value \(7\)/
    ],
    [
      'feedback',
      { feedback: {}, nextCursor: null, hasMore: false },
      /'feedback' has the wrong type/
    ],
    ['assistant', { conversations: [], nextCursor: null }, /'hasMore' is missing/],
    ['assistant', [], /not an object/]
  ] as const)(
    '%s: refuses a page whose own fields break the document: %j',
    async (route, body, message) => {
      sim.inject({ route, ...answer(body) })
      const client = simClient(sim)
      await expect(readers(client)[route]()).rejects.toThrow(message)
      await client.close()
    }
  )

  it.each(CASES)(
    '%s: skips a row that breaks the document, naming it: %j',
    async (route, row, problem) => {
      const list = {
        searches: 'searches',
        feedback: 'feedback',
        'feedback-by-page': 'feedback',
        assistant: 'conversations'
      }[route]
      const cursor =
        route === 'feedback-by-page'
          ? {}
          : route === 'searches'
            ? { nextCursor: null }
            : { nextCursor: null, hasMore: false }
      const extra =
        route === 'searches'
          ? { totalSearches: 1 }
          : route === 'feedback-by-page'
            ? { hasMore: false }
            : {}
      sim.inject({ route, ...answer({ [list]: [row], ...cursor, ...extra }) })
      const client = simClient(sim)
      const page = (await readers(client)[route]()) as unknown as Record<string, unknown>
      await client.close()
      expect(page[list]).toEqual([])
      expect(page).toMatchObject({ sent: 1, skipped: [{ row: 1, problem }] })
    }
  )

  it('count every attempt against the cap and stop retrying when it is spent', async () => {
    sim.inject({ route: 'searches', kind: 'status', status: 503, times: 5 })
    const client = simClient(sim)
    const cap = new RequestCap(3)
    const read = getSearchesPage(
      client,
      SIM_PROJECT,
      { limit: 5 },
      { deadline: inSeconds(10), cap }
    )
    await expect(read).rejects.toThrow(RequestCapReachedError)
    await expect(read).rejects.toThrow(
      /no request was left to try again to read the search terms \(HTTP 503/
    )
    expect(sim.requests('searches')).toHaveLength(3)
    expect(cap.used).toBe(3)
    await expect(
      getSearchesPage(client, SIM_PROJECT, { limit: 5 }, { deadline: inSeconds(10), cap })
    ).rejects.toThrow(/no request was left to read the search terms/)
    expect(sim.requests('searches')).toHaveLength(3)
    await client.close()
  })
})
