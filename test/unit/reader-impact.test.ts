import { describe, expect, it } from 'vitest'
import { renderImpactComment } from '../../src/agent/impact/comment.js'
import { direction, impactCell } from '../../src/agent/ledger/impact-table.js'
import { findDocsRoot, pagesOf, sitePath } from '../../src/agent/impact/pages.js'
import { measureWindows } from '../../src/agent/impact/measure.js'
import { RequestBudget } from '../../src/mintlify/budget.js'
import type { ApiClient } from '../../src/mintlify/client.js'
import { mentions, termsOf } from '../../src/agent/impact/terms.js'
import { dueForImpact, impactWindows } from '../../src/agent/impact/windows.js'
import type { ChangedFile } from '../../src/github/api.js'
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
const file = (path: string, over: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  status: 'modified',
  additions: 1,
  deletions: 0,
  ...over
})

describe('docs files as site paths', () => {
  it('maps pages as Mintlify serves them: extension dropped, index to its folder, under the docs root', () => {
    expect(sitePath('guides/retry.mdx', '')).toBe('/guides/retry')
    expect(sitePath('guides/retry.md', '')).toBe('/guides/retry')
    expect(sitePath('index.mdx', '')).toBe('/')
    expect(sitePath('guides/index.mdx', '')).toBe('/guides')
    expect(sitePath('docs/guides/retry.mdx', 'docs')).toBe('/guides/retry')
    expect(sitePath('docs/index.md', 'docs')).toBe('/')
  })

  it('is no page: snippets, other files, files outside the root, odd paths', () => {
    expect(sitePath('snippets/flag.mdx', '')).toBeUndefined()
    expect(sitePath('docs/snippets/flag.mdx', 'docs')).toBeUndefined()
    expect(sitePath('images/logo.png', '')).toBeUndefined()
    expect(sitePath('docs.json', '')).toBeUndefined()
    expect(sitePath('src/readme.md', 'docs')).toBeUndefined()
    expect(sitePath('docs//x.mdx', 'docs')).toBeUndefined()
    expect(sitePath('docs/../x.mdx', 'docs')).toBeUndefined()
  })

  it('a pull request’s pages: each once, renames by their new path, removed files left out', () => {
    expect(
      pagesOf(
        [
          file('cli/watch.mdx', { status: 'renamed', previousPath: 'cli/follow.mdx' }),
          file('cli/commands.mdx'),
          file('cli/old.mdx', { status: 'removed' }),
          file('snippets/a.mdx'),
          file('logo.svg'),
          file('cli/commands.mdx')
        ],
        ''
      )
    ).toEqual(['/cli/commands', '/cli/watch'])
  })

  it('finds the docs root at the repository’s root or in the first folder of the changed pages', async () => {
    const asked: string[] = []
    const folders: Record<string, string[]> = {
      '': ['README.md', 'docs', 'src'],
      docs: ['docs.json', 'guides'],
      site: ['mint.json']
    }
    const names = async (path: string) => {
      asked.push(path)
      return folders[path] ?? []
    }
    expect(await findDocsRoot(names, [file('docs/guides/a.mdx'), file('src/x.ts')])).toBe('docs')
    expect(asked).toEqual(['', 'docs'])
    expect(await findDocsRoot(names, [file('site/a.md')])).toBe('site')
    expect(await findDocsRoot(async () => ['docs.json'], [file('a.mdx')])).toBe('')
    expect(await findDocsRoot(names, [file('other/a.mdx')])).toBeUndefined()
  })
})

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
      pages: ['/a'],
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

describe('measuring a window from what the service answers', () => {
  const range = { from: '2026-10-01', to: '2026-10-15' }
  /** A client that answers each listing from `bodies`, by the last part of its path. */
  const client = (bodies: Record<string, unknown>): ApiClient =>
    ({
      send: async (spec: { path: string[] }) => bodies[spec.path[spec.path.length - 1] ?? '']
    }) as unknown as ApiClient
  const limits = () => ({ deadline: Date.now() + 60_000, budget: new RequestBudget(10) })
  const counts = (path: string, n: number) => ({ path, human: n, ai: 0, total: n })
  const totals = { human: 100, ai: 0, total: 100 }
  const target = {
    projectId: 'p',
    pages: ['/cli/watch', '/cli/commands'],
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
