import { describe, expect, it } from 'vitest'
import {
  IMPACT_MARKER,
  MAX_COMMENT_CHARS,
  renderImpactComment,
  renderUnsureComment
} from '../../src/impact/comment.js'
import { direction, impactCell, renderImpactTable } from '../../src/agent/ledger/impact-table.js'
import { measureWindows } from '../../src/impact/measure.js'
import { RequestCap } from '../../src/mintlify/request-cap.js'
import type { ApiClient } from '../../src/mintlify/client.js'
import { mentions, termsOf } from '../../src/impact/terms.js'
import { dueForImpact, impactWindows } from '../../src/impact/windows.js'
import {
  IMPACT_MEASURES,
  type LedgerJob,
  type ProjectLedger,
  type ReaderImpact,
  emptyLedger,
  emptyProject,
  ledgerRecord,
  readLedger
} from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 24, 12)
/** A page the pull request did not move. */
const page = (path: string) => ({ path, before: path, moved: false })

describe('terms of the changes', () => {
  it('takes code spans, flags and identifiers from titles, lower case, at most five', () => {
    expect(termsOf([{ title: 'Rename the `--follow` flag to `--watch`' }])).toEqual([
      '--follow',
      '--watch'
    ])
    expect(
      termsOf([{ title: 'Add retryPolicy and max_retries to client.send (--dry-run)' }]).sort()
    ).toEqual(['--dry-run', 'client.send', 'max_retries', 'retrypolicy'])
    expect(termsOf([{ title: 'Tidy up the docs' }])).toEqual([])
    expect(termsOf([{ title: '`a1x` `b2x` `c3x` `d4x` `e5x` `f6x`' }])).toHaveLength(5)
  })

  it('keeps nothing a title could use to reach the comment: only letters, digits, -, _ and .', () => {
    expect(termsOf([{ title: 'Fix `<img src=x onerror=alert(1)>` and `@everyone`' }])).toEqual([])
  })

  it('matches a term as a word, its dashes optional', () => {
    expect(mentions('--watch', '--watch')).toBe(true)
    expect(mentions('how to use watch mode', '--watch')).toBe(true)
    expect(mentions('stopwatch', '--watch')).toBe(false)
    expect(mentions('watcher', '--watch')).toBe(false)
    expect(mentions('client.send options', 'client.send')).toBe(true)
    expect(mentions('clientXsend', 'client.send')).toBe(false)
  })
})

describe('windows', () => {
  it('two windows of whole days meeting at the merge’s day, which is in neither; due a day after', () => {
    const merged = Date.UTC(2026, 10, 10, 15, 30)
    const w = impactWindows(merged, 14)
    expect(w.before).toEqual({ from: '2026-10-27', to: '2026-11-10' })
    expect(w.after).toEqual({ from: '2026-11-11', to: '2026-11-25' })
    expect(new Date(w.dueAt).toISOString()).toBe('2026-11-26T00:00:00.000Z')
  })

  it('due: merged, not measured, windows over; the oldest merge first', () => {
    const project = emptyProject()
    const job = (id: string, over: Partial<LedgerJob>): LedgerJob => ({
      id,
      prLink: `https://github.com/acme/docs/pull/${id}`,
      state: 'merged',
      startedAt: NOW - 60 * DAY,
      changes: [],
      moreChanges: 0,
      ...over
    })
    const measured: ReaderImpact = { at: NOW, days: 14, before: [], after: [] }
    project.jobs.push(
      job('1', { endedAt: NOW - 20 * DAY }),
      job('2', { endedAt: NOW - 30 * DAY }),
      job('3', { endedAt: NOW - 10 * DAY }),
      job('4', { endedAt: NOW - 40 * DAY, impact: measured }),
      job('5', { endedAt: NOW - 40 * DAY, state: 'closed' }),
      job('6', { state: 'merged' })
    )
    expect(dueForImpact(project, NOW, 14).map(j => j.id)).toEqual(['2', '1'])
  })
})

describe('the impact in the ledger', () => {
  const signer = new RecordSigner('mint_test_key_0123456789')
  const PLACE = 'acme/app dashboard'
  const withImpact = (impact: unknown) => {
    const ledger = emptyLedger()
    const project = emptyProject()
    project.jobs.push({
      id: 'job_1',
      prLink: 'https://github.com/acme/docs/pull/1',
      state: 'merged',
      startedAt: NOW - 40 * DAY,
      endedAt: NOW - 30 * DAY,
      changes: [],
      moreChanges: 0,
      impact: impact as ReaderImpact
    })
    ledger.projects.p = project
    const read = readLedger(ledgerRecord(ledger, signer, PLACE, NOW), signer, PLACE)
    return read.ok ? read.ledger.projects.p?.jobs[0]?.impact : 'unread'
  }
  it('keeps a merged docs pull request not measured yet, with its changes, where impact is measured', () => {
    const job = (id: string, over: Partial<LedgerJob>): LedgerJob => ({
      id,
      prLink: `https://github.com/acme/docs/pull/${id}`,
      state: 'merged',
      startedAt: NOW - 2 * DAY,
      prCreatedAt: NOW - 2 * DAY,
      endedAt: NOW - DAY,
      changes: [{ sha: 'a'.repeat(40), pr: Number(id), title: 'Rename `--follow` to `--watch`' }],
      moreChanges: 0,
      ...over
    })
    const fitted = (impactDays?: number) => {
      const ledger = emptyLedger()
      const project = emptyProject()
      if (impactDays) project.impactDays = impactDays
      project.jobs.push(
        // Windows of 14 days that end tomorrow: the next runs measure it, on its changes' terms.
        job('1', {
          startedAt: NOW - 20 * DAY,
          prCreatedAt: NOW - 20 * DAY,
          endedAt: NOW - 15 * DAY
        }),
        // Opened 35 days ago, merged after a long review: its 28-day windows end in 8 days.
        job('2', {
          startedAt: NOW - 35 * DAY,
          prCreatedAt: NOW - 35 * DAY,
          endedAt: NOW - 22 * DAY
        }),
        // Measured already: kept for the outcomes only, without its changes.
        job('3', {
          prCreatedAt: NOW - 20 * DAY,
          endedAt: NOW - 19 * DAY,
          impact: { at: NOW, days: 14, before: [], after: [] }
        }),
        ...Array.from({ length: 10 }, (_, i) => job(String(10 + i), {}))
      )
      ledger.projects.p = project
      const read = readLedger(ledgerRecord(ledger, signer, PLACE, NOW), signer, PLACE)
      return read.ok ? (read.ledger.projects.p as ProjectLedger) : undefined
    }
    const measuring = fitted(28)
    expect(measuring?.impactDays).toBe(28)
    const [first, second, third] = measuring?.jobs ?? []
    expect([first?.id, second?.id, third?.id]).toEqual(['1', '2', '3'])
    expect(termsOf(first?.changes ?? [])).toEqual(['--follow', '--watch'])
    expect(termsOf(second?.changes ?? [])).toEqual(['--follow', '--watch'])
    expect(third?.changes).toEqual([])
    // Without impact-after, as before: the window's docs pull requests, without their changes.
    const plain = fitted()
    expect(plain?.impactDays).toBeUndefined()
    expect(plain?.jobs.map(j => j.id).slice(0, 2)).toEqual(['1', '3'])
    expect(plain?.jobs[0]?.changes).toEqual([])
  })

  it('is kept as written, and dropped when out of shape', () => {
    const good = {
      at: NOW,
      days: 14,
      before: [1, 2, 3, null, 5, 6],
      after: [1, 2, 3, 4, 5, 6],
      commentUrl: 'https://github.com/acme/docs/pull/1#issuecomment-5'
    }
    expect(withImpact(good)).toEqual(good)
    expect(withImpact({ ...good, before: [1, 2] })).toBeUndefined()
    expect(withImpact({ ...good, after: [1, 2, 3, 4, 5, -6] })).toBeUndefined()
    expect(withImpact({ ...good, days: 0 })).toBeUndefined()
    expect(withImpact({ ...good, commentUrl: 'javascript:alert(1)' })).toEqual({
      ...good,
      commentUrl: undefined
    })
  })
})

describe('the comment', () => {
  it('arrows with the difference, too few to tell under 10 in both, not known for a missing figure', () => {
    expect(direction(100, 150)).toBe('↑ +50 (+50%)')
    expect(direction(150, 100)).toBe('↓ −50 (−33%)')
    expect(direction(12, 12)).toBe('→ same')
    expect(direction(0, 14)).toBe('↑ +14')
    expect(direction(3, 9)).toBe('too few to tell')
    expect(direction(null, 9)).toBe('not known')
    const impact: ReaderImpact = {
      at: NOW,
      days: 14,
      before: [100, 1, 0, null, 5, null],
      after: [120, 2, 0, 3, 40, null]
    }
    expect(impactCell(impact, 'humanViews')).toBe('100 → 120 ↑')
    expect(impactCell(impact, 'humanVisitors')).toBe('1 → 2 (too few)')
    expect(impactCell(impact, 'thumbsDown')).toBe('not known → 3')
    expect(impactCell(impact, 'unansweredQuestions')).toBe('–')
  })

  it('names the windows and says no more than the numbers', () => {
    const body = renderImpactComment({
      mergedAt: Date.UTC(2026, 10, 10, 15, 30),
      days: 14,
      ...impactWindows(Date.UTC(2026, 10, 10, 15, 30), 14),
      pages: [page('/a')],
      terms: ['--watch'],
      figures: { before: [100, 60, 5, 12, 30, 4], after: [150, 90, 5, 3, 2, 1] },
      notes: []
    })
    expect(body).toContain(
      '**before** 2026-10-27 to 2026-11-09, **after** 2026-11-11 to 2026-11-24'
    )
    expect(body).toContain('| Thumbs-down per 100 human views | 12.0 | 2.0 | ↓ −10 (−83%) |')
    expect(body).toContain(
      '| Unanswered assistant questions on its terms or pages | 4 | 1 | too few to tell |'
    )
    expect(body).not.toMatch(/improv|helped|better|worse/i)
  })
})

const range = { from: '2026-10-01', to: '2026-10-15' }
/** A client that answers each listing from `bodies`, by the last part of its path. */
const client = (bodies: Record<string, unknown>): ApiClient =>
  ({
    send: async (spec: { path: string[] }) => bodies[spec.path[spec.path.length - 1] ?? '']
  }) as unknown as ApiClient
const limits = () => ({ deadline: Date.now() + 60_000, cap: new RequestCap(10) })
const counts = (path: string, n: number) => ({ path, human: n, ai: 0, total: n })

describe('measuring a window from what the service answers', () => {
  const totals = { human: 100, ai: 0, total: 100 }
  const target = {
    projectId: 'p',
    pages: [page('/cli/watch'), page('/cli/commands')],
    terms: [],
    before: range,
    after: range
  }

  it('a page whose thumbs-down are not listed is not known, even when another page is listed twice', async () => {
    const measured = await measureWindows(
      client({
        views: {
          totals,
          views: [counts('/cli/watch', 50), counts('/cli/commands', 50)],
          hasMore: false
        },
        visitors: {
          totals,
          visitors: [counts('/cli/watch', 40), counts('/cli/commands', 40)],
          hasMore: false
        },
        'by-page': {
          feedback: [
            { path: '/cli/watch', thumbsUp: 0, thumbsDown: 12, code: 0, total: 12 },
            { path: 'cli/watch/', thumbsUp: 0, thumbsDown: 12, code: 0, total: 12 }
          ],
          hasMore: true
        }
      }),
      target,
      limits()
    )
    expect(measured.before[IMPACT_MEASURES.indexOf('thumbsDown')]).toBeNull()
  })

  it('a page whose row the service sent out of shape is not known, not zero', async () => {
    const measured = await measureWindows(
      client({
        views: {
          totals,
          views: [counts('/cli/watch', 50), { ...counts('/cli/commands', 50), human: '50' }],
          hasMore: false
        },
        visitors: {
          totals,
          visitors: [
            counts('/cli/watch', 40),
            { path: '/cli/commands', human: 40, ai: -1, total: 40 }
          ],
          hasMore: false
        },
        'by-page': {
          feedback: [
            { path: '/cli/watch', thumbsUp: 0, thumbsDown: 12, code: 0, total: 12 },
            { path: '/cli/commands', thumbsUp: 0, thumbsDown: '30', code: 0, total: 30 }
          ],
          hasMore: false
        }
      }),
      target,
      limits()
    )
    for (const name of ['humanViews', 'humanVisitors', 'aiVisitors', 'thumbsDown'] as const)
      expect(measured.before[IMPACT_MEASURES.indexOf(name)], name).toBeNull()
    expect(measured.notes.join(' ')).toMatch(/rows out of the shape/)
  })
})

describe('hostile answers', () => {
  const search = (searchQuery: string, hits: unknown) => ({
    searchQuery,
    hits,
    ctr: 0,
    topClickedPage: null,
    lastSearchedAt: '2026-10-02T00:00:00Z'
  })
  const turn = (over: Record<string, unknown> = {}) => ({
    id: 't1',
    timestamp: '2026-10-02T00:00:00Z',
    query: 'how does --watch work?',
    response: 'It does not.',
    sources: [],
    resolutionStatus: 'unanswered',
    queryCategory: null,
    pageUrl: null,
    ...over
  })
  const at = (name: (typeof IMPACT_MEASURES)[number]) => IMPACT_MEASURES.indexOf(name)
  const terms = { projectId: 'p', pages: [], terms: ['--watch'], before: range, after: range }

  it('a term’s figure with rows skipped as out of shape is not known, not the rest’s sum', async () => {
    const measured = await measureWindows(
      client({
        searches: {
          totalSearches: 93,
          searches: [search('--watch', 42), search('--watch flag', '51'), search('x', undefined)],
          nextCursor: null
        },
        assistant: {
          conversations: [turn(), turn({ id: 't2', sources: undefined })],
          nextCursor: null,
          hasMore: false
        }
      }),
      terms,
      limits()
    )
    expect(measured.before[at('zeroClickSearches')]).toBeNull()
    expect(measured.before[at('unansweredQuestions')]).toBeNull()
    expect(measured.notes.join(' ')).toMatch(/search or question rows out of the shape/)
    // The same rows in shape: known figures.
    const whole = await measureWindows(
      client({
        searches: { totalSearches: 42, searches: [search('--watch', 42)], nextCursor: null },
        assistant: { conversations: [turn()], nextCursor: null, hasMore: false }
      }),
      terms,
      limits()
    )
    expect(whole.before[at('zeroClickSearches')]).toBe(42)
    expect(whole.before[at('unansweredQuestions')]).toBe(1)
  })

  it('a term with no row in a search listing that has more pages is not known, not zero', async () => {
    const answer = (nextCursor: string | null) =>
      client({
        searches: { totalSearches: 900, searches: [search('pricing', 500)], nextCursor },
        assistant: { conversations: [], nextCursor: null, hasMore: false }
      })
    const more = await measureWindows(answer('c2'), terms, limits())
    expect(more.before[at('zeroClickSearches')]).toBeNull()
    expect(more.notes.join(' ')).toMatch(/a term not among the 100 most searched/)
    // The whole listing read: the term was not searched, a known 0.
    const whole = await measureWindows(answer(null), terms, limits())
    expect(whole.before[at('zeroClickSearches')]).toBe(0)
  })

  it('a term with no question among the latest read, when the listing has more, is not known, not zero', async () => {
    const answer = (hasMore: boolean) =>
      client({
        searches: { totalSearches: 0, searches: [], nextCursor: null },
        assistant: {
          conversations: [turn({ query: 'how do I rotate keys?' })],
          nextCursor: hasMore ? 'c2' : null,
          hasMore
        }
      })
    const more = await measureWindows(answer(true), terms, limits())
    expect(more.before[at('unansweredQuestions')]).toBeNull()
    expect(more.notes.join(' ')).toMatch(
      /Questions: a term not among the latest 1000 assistant questions of a window is not known there/
    )
    // Every question of the window read: nobody asked about it, a known 0.
    const whole = await measureWindows(answer(false), terms, limits())
    expect(whole.before[at('unansweredQuestions')]).toBe(0)
  })

  it('questions asked on a page with spaces or accents in its path count for it', async () => {
    // The page's file name in decomposed form (as macOS writes it), the URL encoded and composed.
    const pages = [page('/guides/cafe\u0301 menu'), page('/guides/über')]
    const measured = await measureWindows(
      client({
        views: { totals: { human: 1, ai: 0, total: 1 }, views: [], hasMore: false },
        visitors: { totals: { human: 1, ai: 0, total: 1 }, visitors: [], hasMore: false },
        'by-page': { feedback: [], hasMore: false },
        searches: { totalSearches: 0, searches: [], nextCursor: null },
        assistant: {
          conversations: [
            turn({ query: 'a', pageUrl: 'https://docs.acme.dev/guides/caf%C3%A9%20menu#top' }),
            turn({ id: 't2', query: 'b', pageUrl: 'https://docs.acme.dev/guides/%C3%BCber' }),
            // Broken percent-encoding is no page of theirs, and no failure.
            turn({ id: 't3', query: 'c', pageUrl: 'https://docs.acme.dev/guides/%E0%A4%A' })
          ],
          nextCursor: null,
          hasMore: false
        }
      }),
      { ...terms, pages, terms: ['--nothing'] },
      limits()
    )
    expect(measured.before[at('unansweredQuestions')]).toBe(2)
  })

  it('listings that go on past the rows read keep their figures and say what they cover', async () => {
    const measured = await measureWindows(
      client({
        searches: { totalSearches: 42, searches: [search('--watch', 42)], nextCursor: 'c2' },
        assistant: { conversations: [turn()], nextCursor: 'c2', hasMore: true }
      }),
      terms,
      limits()
    )
    expect(measured.before[at('zeroClickSearches')]).toBe(42)
    expect(measured.before[at('unansweredQuestions')]).toBe(1)
    expect(measured.notes).toEqual([
      'Searches: among the 100 most searched terms of each window.',
      'Questions: among the latest 1000 assistant questions of each window.'
    ])
  })

  it('counts that are no whole number of readers, or past all bounds, are not known', async () => {
    const measured = await measureWindows(
      client({
        views: {
          totals: { human: 1, ai: 0, total: 1 },
          views: [counts('/a', 1e308), counts('/a', 1e308)],
          hasMore: false
        },
        visitors: {
          totals: { human: 1, ai: 0, total: 1 },
          visitors: [counts('/a', 0.25)],
          hasMore: false
        },
        'by-page': {
          feedback: [{ path: '/a', thumbsUp: 0, thumbsDown: 2, code: 0, total: 2 }],
          hasMore: false
        }
      }),
      { ...terms, pages: [page('/a')], terms: [] },
      limits()
    )
    expect(measured.before[at('humanViews')]).toBeNull()
    expect(measured.before[at('humanVisitors')]).toBeNull()
    expect(measured.before[at('aiVisitors')]).toBe(0)
    expect(measured.before[at('thumbsDown')]).toBe(2)
    expect(measured.notes.join(' ')).toMatch(/no whole number of readers/)
    const body = renderImpactComment({
      mergedAt: NOW,
      days: 14,
      ...impactWindows(NOW, 14),
      pages: [page('/a')],
      terms: [],
      figures: measured,
      notes: measured.notes
    })
    expect(body).not.toMatch(/∞|Infinity|NaN/)
    expect(body).toContain(
      '| Thumbs-down per 100 human views | not known | not known | not known |'
    )
  })

  it('a renamed page is read at its old path before the merge and its new path after', async () => {
    const asked: string[] = []
    const views = (path: string) => ({
      totals: { human: 10, ai: 0, total: 10 },
      views: [counts(path, 10)],
      visitors: [counts(path, 5)],
      hasMore: false
    })
    let window = 0
    const measured = await measureWindows(
      {
        send: async (spec: { path: string[] }) => {
          const last = spec.path[spec.path.length - 1] ?? ''
          asked.push(last)
          const path = window < 2 ? '/old' : '/new'
          if (last === 'views' || last === 'visitors') {
            window++
            return views(path)
          }
          return { feedback: [], hasMore: false }
        }
      } as unknown as ApiClient,
      { ...terms, terms: [], pages: [{ path: '/new', before: '/old' }] },
      limits()
    )
    expect(measured.before[at('humanViews')]).toBe(10)
    expect(measured.after[at('humanViews')]).toBe(10)
    expect(asked).toEqual(['views', 'visitors', 'by-page', 'views', 'visitors', 'by-page'])
  })
})

describe('the comment, with odd paths', () => {
  const base = {
    mergedAt: NOW,
    days: 14,
    ...impactWindows(NOW, 14),
    terms: ['--watch'],
    figures: { before: [1, 1, 1, 1, 1, 1], after: [1, 1, 1, 1, 1, 1] },
    notes: []
  }

  it('takes out bidi and control characters, and escapes | only inside tables', () => {
    const body = renderImpactComment({
      ...base,
      pages: [page('/guides/\u202Egnp.exe'), page('/a|b\u0007')]
    })
    expect(body).toContain('- **Pages**: `/guides/gnp.exe`, `/a|b`')
    expect(body).not.toContain('\u202E')
    expect(body).not.toContain('\u0007')
    expect(body).not.toContain('\\|')
  })

  it('shows a rename with its old path, and one that only moved as moved', () => {
    const body = renderImpactComment({
      ...base,
      pages: [
        { path: '/cli/watch', before: '/cli/follow', moved: false },
        { path: '/new', before: '/old', moved: true }
      ]
    })
    expect(body).toContain(
      '- **Pages**: `/cli/follow` → `/cli/watch`, `/old` → `/new` (moved only)'
    )
  })

  it('names the operation pages of a spec it could not read, as not measured', () => {
    const body = renderImpactComment({
      ...base,
      pages: [],
      operations: [{ name: 'GET /users', spec: 'https://api.acme.dev/openapi.json' }],
      wholeSpecs: ['openapi.yaml']
    })
    expect(body).toContain(
      '- **OpenAPI pages**: `GET /users`, every operation of `openapi.yaml`: generated from a spec this pull request changed that could not be read'
    )
  })

  it('stays under GitHub’s 65,536-character limit however long the paths', () => {
    const long = (n: number) => page(`/${String(n).repeat(6_000)}`)
    const pages = Array.from({ length: 12 }, (_, i) => long(i))
    const body = renderImpactComment({ ...base, pages })
    expect(body.length).toBeLessThan(MAX_COMMENT_CHARS)
    expect(body).toContain('and 2 more')
    expect(body).toContain(IMPACT_MARKER)
  })

  it('says in one line that the pages cannot be told, and shows it on the dashboard', () => {
    const unsure = 'the repository holds no docs.json or mint.json'
    const body = renderUnsureComment({ mergedAt: NOW, unsure })
    expect(body.split('\n').filter(l => l.includes('Not measured'))).toHaveLength(1)
    expect(body).toContain('no analytics request was spent on it')
    const table = renderImpactTable(
      [
        {
          prLink: 'https://github.com/acme/docs/pull/1',
          impact: { at: NOW, days: 14, before: [], after: [], unsure }
        }
      ],
      link => link
    ).join('\n')
    expect(table).toContain(`Not measured: ${unsure}`)
  })
})
