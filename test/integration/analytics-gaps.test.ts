import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  getAssistantPage,
  getFeedbackByPage,
  getFeedbackPage,
  getSearchesPage
} from '../../src/mintlify/analytics-gaps.js'
import { RequestBudget } from '../../src/mintlify/budget.js'
import { BudgetExhaustedError } from '../../src/mintlify/errors.js'
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

const limits = (max = 10) => ({ deadline: inSeconds(10), budget: new RequestBudget(max) })
const answer = (body: unknown) => ({ kind: 'status' as const, status: 200, body })

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

  it.each([
    [
      'searches',
      {
        searches: [{ searchQuery: 'x', hits: 1, ctr: 0, topClickedPage: null }],
        totalSearches: 1,
        nextCursor: null
      },
      /searches row 1: 'lastSearchedAt' is missing/
    ],
    [
      'searches',
      { searches: [], totalSearches: -1, nextCursor: null },
      /'totalSearches' has the wrong type/
    ],
    [
      'searches',
      { searches: [], totalSearches: 1, nextCursor: 7 },
      /'nextCursor' has the wrong type/
    ],
    [
      'feedback-by-page',
      {
        feedback: [{ path: '/a', thumbsUp: 1, thumbsDown: null, code: 0, total: 1 }],
        hasMore: false
      },
      /feedback row 1: 'thumbsDown' has the wrong type/
    ],
    [
      'feedback',
      {
        feedback: [
          {
            id: '1',
            path: '/a',
            comment: null,
            createdAt: null,
            source: 'contextual',
            status: 'pending',
            helpful: false
          }
        ],
        nextCursor: null,
        hasMore: false
      },
      /feedback row 1: 'contact' is missing/
    ],
    [
      'feedback',
      {
        feedback: [
          {
            id: '1',
            path: '/a',
            comment: null,
            createdAt: null,
            source: 'email',
            status: 'pending'
          }
        ],
        nextCursor: null,
        hasMore: false
      },
      /'source' has the wrong type/
    ],
    [
      'assistant',
      {
        conversations: [
          {
            id: '1',
            timestamp: 't',
            query: 'q',
            response: 'r',
            sources: [{ title: 't' }],
            resolutionStatus: 'unanswered',
            queryCategory: null,
            pageUrl: null
          }
        ],
        nextCursor: null,
        hasMore: false
      },
      /conversations row 1: 'sources' has the wrong type/
    ],
    [
      'assistant',
      {
        conversations: [
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
          }
        ],
        nextCursor: null,
        hasMore: false
      },
      /'responseType' has the wrong type/
    ],
    ['assistant', [], /not an object/]
  ] as const)('%s: refuses %j', async (route, body, message) => {
    sim.inject({ route, ...answer(body) })
    const client = simClient(sim)
    const read = {
      searches: () => getSearchesPage(client, SIM_PROJECT, { limit: 1 }, limits()),
      feedback: () => getFeedbackPage(client, SIM_PROJECT, { limit: 1 }, limits()),
      'feedback-by-page': () => getFeedbackByPage(client, SIM_PROJECT, { limit: 1 }, limits()),
      assistant: () => getAssistantPage(client, SIM_PROJECT, { limit: 1 }, limits())
    }[route]
    await expect(read()).rejects.toThrow(message)
    await client.close()
  })

  it('count every attempt against the budget and stop retrying when it is spent', async () => {
    sim.inject({ route: 'searches', kind: 'status', status: 503, times: 5 })
    const client = simClient(sim)
    const budget = new RequestBudget(3)
    const read = getSearchesPage(
      client,
      SIM_PROJECT,
      { limit: 5 },
      { deadline: inSeconds(10), budget }
    )
    await expect(read).rejects.toThrow(BudgetExhaustedError)
    await expect(read).rejects.toThrow(
      /no request was left in the budget to try again to read the search terms \(HTTP 503/
    )
    expect(sim.requests('searches')).toHaveLength(3)
    expect(budget.used).toBe(3)
    await expect(
      getSearchesPage(client, SIM_PROJECT, { limit: 5 }, { deadline: inSeconds(10), budget })
    ).rejects.toThrow(/no request was left in the budget to read the search terms/)
    expect(sim.requests('searches')).toHaveLength(3)
    await client.close()
  })
})
