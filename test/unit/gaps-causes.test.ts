import { describe, expect, it } from 'vitest'
import { readChanges, readMergedPulls } from '../../src/github/changes.js'
import { type ChangeText, type Gap, tieGaps } from '../../src/gaps/causes.js'
import { docsSite } from '../../src/docs-site/site.js'
import { diffExcerpt } from '../../src/gaps/changes.js'
import type { Cause } from '../../src/gaps/report.js'
import { distinctiveTerms, mentions, namesPageFile, pageTerms } from '../../src/runner/terms.js'
import { removedTerms } from '../../src/gaps/removed-terms.js'
import { MAX_CAUSES_BYTES, causesOutput } from '../../src/gaps/tie.js'
import { splitAtMerges } from '../../src/gaps/split.js'
import { RequestCap } from '../../src/mintlify/request-cap.js'
import type { ApiClient } from '../../src/mintlify/client.js'

describe('distinctive terms of a gap', () => {
  it.each([
    ['--watch', ['--watch']],
    ['how to use --dry-run with server.port.', ['--dry-run', 'server.port']],
    ['apiKey not working', ['apiKey']],
    [
      'MaxRetries or MAX_RETRIES or max_retries (one name, case aside)',
      ['MAX_RETRIES', 'MaxRetries']
    ],
    ['GET /v1/users/{id} returns 404', ['/v1/users/{id}']],
    ['set `max-requests` to 5', ['max-requests']],
    ['what is `retryAfter`', ['retryAfter']]
  ])('%j has %j', (text, terms) => {
    expect(distinctiveTerms(text)).toEqual(terms)
  })

  it.each([
    'watch mode',
    'rate limit',
    '`watch`',
    'SSO SAML',
    'e.g. sign-in with e-mail',
    'Can I self-host the dashboard?',
    'node.js api docs',
    'version 1.2.3',
    'index'
  ])('%j has none: common words never tie on their own', text => {
    expect(distinctiveTerms(text)).toEqual([])
  })

  it('keeps at most eight terms of at most 80 characters from the first 500 characters', () => {
    const many = Array.from({ length: 20 }, (_, i) => `--flag${i}`).join(' ')
    expect(distinctiveTerms(many)).toHaveLength(8)
    expect(distinctiveTerms(`--${'a'.repeat(100)}`)).toEqual([])
    expect(distinctiveTerms(`${'x '.repeat(300)} --late`)).toEqual([])
  })

  it('finds a term only as a whole name, case aside', () => {
    expect(mentions('Renamed --follow to --watch.', '--watch')).toBe(true)
    expect(mentions('use --watch-all', '--watch')).toBe(false)
    expect(mentions('apiKeys', 'apiKey')).toBe(false)
    expect(mentions('set SERVER.PORT.', 'server.port')).toBe(true)
    expect(mentions('server.port.max', 'server.port')).toBe(false)
    expect(mentions('a (b) [c] {d} *e*', 'b) [c')).toBe(true)
  })

  it('names a page by its path, or by a source file whose path or slug it ends in', () => {
    const page = pageTerms('/cli/commands/')
    expect(page).toEqual({ paths: ['/cli/commands', 'cli/commands'], slug: 'commands' })
    expect(namesPageFile(['docs/cli/commands.mdx'], page)).toBe(true)
    expect(namesPageFile(['cli/commands.md'], page)).toBe(true)
    expect(namesPageFile(['src/other/commands.ts'], page)).toBe(true)
    expect(namesPageFile(['src/commands-old.ts'], page)).toBe(false)
    expect(pageTerms('/')).toEqual({ paths: [], slug: null })
    expect(pageTerms('/index').slug).toBeNull()
  })
})

const change = (over: Partial<ChangeText>): ChangeText => ({
  pr: 1,
  title: 'A change',
  body: '',
  url: 'https://github.com/acme/app/pull/1',
  mergedAt: Date.parse('2026-11-10T12:00:00Z'),
  files: [],
  diff: '',
  ...over
})
const gap = (kind: Gap['kind'], text: string): Gap => ({ kind, text, count: 5 })
const WINDOW = { from: Date.parse('2026-11-01'), to: Date.parse('2026-11-18') }

describe('what a change removed', () => {
  it('is the terms of removed lines that no added line names, at most three', () => {
    expect(removedTerms("-  follow: flag('--follow'),\n+  watch: flag('--watch'),")).toEqual([
      '--follow'
    ])
    // Moved, not removed: the added lines still name it.
    expect(removedTerms("-  a: cfg['server.port']\n+  b: cfg['server.port']")).toEqual([])
    expect(removedTerms('- --a1 --a2\n- --a3 --a4\n+ plain')).toEqual(['--a1', '--a2', '--a3'])
    expect(removedTerms('')).toEqual([])
  })

  it('keeps no e-mail address, mention or link of a diff: the report and the prompt say they have none', () => {
    const diff = [
      '- owner: `alice@example.com` (`@alice`)',
      '- see `https://evil.example/x` and --old-flag',
      '+ owner: team'
    ].join('\n')
    const removed = removedTerms(diff)
    expect(removed).toContain('--old-flag')
    expect(removed.join(' ')).not.toMatch(/@|:\/\/|example\.com|alice/)
  })
})

describe('tying gaps to changes', () => {
  it('ties on the title, the description, the file paths or the diff excerpt', () => {
    const gaps = [
      gap('search', '--a-flag'),
      gap('search', 'bKey'),
      gap('search', 'flags_file'),
      gap('search', 'eValue')
    ]
    const ties = tieGaps(
      gaps,
      [
        change({ pr: 1, title: 'Add --a-flag' }),
        change({ pr: 2, body: 'Now `bKey` is read.' }),
        change({ pr: 3, files: ['src/flags_file.ts'] }),
        change({ pr: 4, diff: '+ const eValue = 1' })
      ],
      WINDOW
    )
    expect(ties.map(t => [t.gap.text, t.change.pr, t.terms])).toEqual([
      ['--a-flag', 1, ['--a-flag']],
      ['bKey', 2, ['bKey']],
      ['flags_file', 3, ['flags_file']],
      ['eValue', 4, ['eValue']]
    ])
  })

  it('ties only changes merged inside the range, the one with most terms, else the earliest', () => {
    const g = gap('question', 'Does --watch work with server.port?')
    const outside = change({
      pr: 9,
      title: '--watch and server.port',
      mergedAt: Date.parse('2026-10-20')
    })
    const late = change({ pr: 12, title: 'fix --watch', mergedAt: Date.parse('2026-11-15') })
    const early = change({ pr: 11, title: 'add --watch', mergedAt: Date.parse('2026-11-05') })
    expect(tieGaps([g], [outside, late, early], WINDOW)[0]?.change.pr).toBe(11)
    const both = change({
      pr: 13,
      body: 'server.port and --watch',
      mergedAt: Date.parse('2026-11-16')
    })
    expect(tieGaps([g], [late, early, both], WINDOW)[0]).toMatchObject({
      change: { pr: 13 },
      terms: ['--watch', 'server.port']
    })
    // At the range's exclusive end: outside.
    expect(tieGaps([g], [change({ title: '--watch', mergedAt: WINDOW.to })], WINDOW)).toEqual([])
    // An open start takes any change before the end.
    expect(tieGaps([g], [outside], { to: WINDOW.to })).toHaveLength(1)
  })

  it('never ties a gap of common words, and ties a page by its path or its file', () => {
    const c = change({ title: 'Watch mode and rate limit', files: ['docs/guides/sso.mdx'] })
    expect(
      tieGaps([gap('search', 'watch mode'), gap('search', 'rate limit')], [c], WINDOW)
    ).toEqual([])
    const site = docsSite(
      { paths: ['docs/docs.json', 'docs/guides/sso.mdx'], truncated: false },
      new Map(),
      []
    )
    expect(tieGaps([gap('page', '/guides/sso')], [c], WINDOW, site)[0]?.terms).toEqual([
      '/guides/sso'
    ])
    // Which page a Markdown file is, only the site's routing says: without it, no file ties.
    expect(tieGaps([gap('page', '/guides/sso')], [c], WINDOW)).toEqual([])
    const named = change({ body: 'Moved /guides/sso to /auth/sso.' })
    expect(tieGaps([gap('page', '/guides/sso')], [named], WINDOW)).toHaveLength(1)
    expect(tieGaps([gap('page', '/')], [named], WINDOW)).toEqual([])
  })

  it('ties a page to the file that is it on the site: its own language, index pages, the / page, long paths', () => {
    const long = `guides/${'x'.repeat(120)}`
    const site = docsSite(
      {
        paths: [
          'docs.json',
          'index.mdx',
          'advanced-support.mdx',
          'es/advanced-support.mdx',
          'fr/advanced-support.mdx',
          'guides/index.mdx',
          `${long}.mdx`,
          'CONTRIBUTING.md'
        ],
        truncated: false
      },
      new Map(),
      []
    )
    const translation = change({
      pr: 5,
      files: ['es/advanced-support.mdx', 'fr/advanced-support.mdx']
    })
    const english = change({ pr: 6, files: ['advanced-support.mdx'] })
    const home = change({ pr: 7, files: ['index.mdx', 'guides/index.mdx', `${long}.mdx`] })
    const notes = change({ pr: 8, files: ['CONTRIBUTING.md'] })
    const tied = (path: string) =>
      tieGaps([gap('page', path)], [translation, english, home, notes], WINDOW, site).map(
        t => t.change.pr
      )
    expect(tied('/advanced-support')).toEqual([6])
    expect(tied('/es/advanced-support')).toEqual([5])
    expect(tied('/')).toEqual([7])
    expect(tied('/guides')).toEqual([7])
    expect(tied(`/${long}`)).toEqual([7])
    expect(tied('/contributing')).toEqual([])
  })
})

describe('what the changes are read from', () => {
  it('keeps only added and removed lines of the patches, capped at 4,000 characters', () => {
    const excerpt = diffExcerpt([
      {
        path: 'a.ts',
        status: 'modified',
        additions: 1,
        deletions: 1,
        patch: '@@ -1 +1 @@\n context\n-old\n+new\n--- a/x\n+++ b/x'
      },
      { path: 'b.ts', status: 'renamed', previousPath: 'c.ts', additions: 0, deletions: 0 }
    ])
    expect(excerpt).toBe('-old\n+new\nc.ts\n')
    const long = diffExcerpt([
      {
        path: 'big.ts',
        status: 'modified',
        additions: 1000,
        deletions: 0,
        patch: Array(1000).fill('+line of code').join('\n')
      }
    ])
    expect(long.length).toBeLessThanOrEqual(4000)
    expect(long.length).toBeGreaterThan(3900)
  })

  it('reads changes in batches of 25, leaving out what GitHub does not know or never merged', async () => {
    const queries: string[] = []
    const refs = [
      ...Array.from({ length: 30 }, (_, i) => ({ sha: 'x', pr: i + 1 })),
      { sha: 'a'.repeat(40) },
      { sha: 'not a sha"){ evil }' },
      { sha: 'y', pr: -1 }
    ]
    const found = await readChanges(
      async query => {
        queries.push(query)
        const data: Record<string, unknown> = {}
        for (const [, alias, n] of query.matchAll(/(c\d+): pullRequest\(number: (\d+)\)/g))
          data[alias as string] =
            Number(n) === 2
              ? { number: 2, merged: false }
              : {
                  number: Number(n),
                  merged: true,
                  mergedAt: '2026-11-10T00:00:00Z',
                  title: `T${n}`,
                  files: { nodes: [{ path: 'a.ts' }, null] }
                }
        for (const [, alias] of query.matchAll(/(c\d+): object/g))
          data[alias as string] = {
            oid: 'a'.repeat(40),
            message: 'Push\n\nbody',
            committedDate: 'nonsense'
          }
        return { repository: data }
      },
      { owner: 'acme', repo: 'app' },
      refs
    )
    expect(queries).toHaveLength(2)
    expect(queries.join('\n')).not.toContain('evil')
    // #2 never merged, the push has no valid date: both left out.
    expect(found.map(c => c.pr)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1).filter(n => n !== 2)
    )
    expect(found[0]).toMatchObject({
      title: 'T1',
      files: ['a.ts'],
      mergedAt: Date.parse('2026-11-10')
    })
  })

  it('lists the pull requests merged into the default branch since the start, by merge time, and counts those left out', async () => {
    const node = (n: number, base: string, mergedAt: string) => ({
      number: n,
      merged: true,
      mergedAt,
      baseRefName: base,
      url: `u${n}`
    })
    const asked: unknown[] = []
    const answer =
      (nodes: unknown[], issueCount = nodes.length) =>
      async (_query: string, variables: unknown) => {
        asked.push(variables)
        return { repository: { defaultBranchRef: { name: 'main' } }, search: { issueCount, nodes } }
      }
    const since = Date.parse('2026-11-01')
    const few = await readMergedPulls(
      answer([
        node(1, 'main', '2026-11-05T00:00:00Z'),
        node(2, 'dev', '2026-11-06T00:00:00Z'),
        node(4, 'main', '2026-11-07T00:00:00Z')
      ]),
      { owner: 'acme', repo: 'app' },
      since
    )
    expect(few.changes.map(c => c.pr)).toEqual([4, 1])
    expect(few.unread).toBe(0)
    // Selected by merge time in GitHub's search, not the most recently updated.
    expect(asked[0]).toMatchObject({
      search: 'repo:acme/app is:pr is:merged merged:>=2026-11-01T00:00:00Z sort:created-desc'
    })
    const full = await readMergedPulls(
      answer(
        Array.from({ length: 100 }, (_, i) => node(i + 1, 'main', '2026-11-05T00:00:00Z')),
        130
      ),
      { owner: 'acme', repo: 'app' },
      since
    )
    expect(full.unread).toBe(30)
    const none = await readMergedPulls(
      async () => ({ repository: null }),
      { owner: 'acme', repo: 'app' },
      since
    )
    expect(none).toEqual({ changes: [], unread: 0, branch: '' })
    await expect(
      readMergedPulls(answer([]), { owner: 'acme', repo: 'app is:open' }, since)
    ).rejects.toThrow(/no repository name/)
  })

  it('caps the causes output, leaving out the last entries', () => {
    const cause = (i: number): Cause => ({
      gap: { kind: 'search', text: `--flag${i}` },
      count: 1,
      change: 'https://github.com/acme/app/pull/1',
      title: 'x'.repeat(5000),
      terms: [`--flag${i}`],
      removed: [],
      merged: '2026-11-10T00:00:00.000Z',
      splitAt: '2026-11-10',
      before: 0,
      after: 1
    })
    const entries = Array.from({ length: 30 }, (_, i) => cause(i))
    const out = JSON.parse(causesOutput(entries)) as Cause[]
    expect(Buffer.byteLength(causesOutput(entries))).toBeLessThanOrEqual(MAX_CAUSES_BYTES)
    expect(out.length).toBeGreaterThan(5)
    expect(out.length).toBeLessThan(30)
    expect(out.map(c => c.gap.text)).toEqual(entries.slice(0, out.length).map(c => c.gap.text))
    expect(causesOutput([])).toBe('[]')
  })
})

describe('splitting a tied gap at its merge day', () => {
  const answering = (body: unknown): ApiClient =>
    ({ send: async () => body }) as unknown as ApiClient
  const split = (body: unknown, g: Gap) =>
    splitAtMerges(
      [{ gap: g, change: change({ title: 'Rename to `--watch`' }), terms: ['--watch'] }],
      {
        client: answering(body),
        projectId: 'p',
        range: { dateFrom: '2026-11-01', dateTo: '2026-11-18', fromAt: WINDOW.from },
        limits: { deadline: Date.now() + 60_000, cap: new RequestCap(5) },
        askedAt: new Map()
      }
    )
  const row = (searchQuery: string, hits: number, clicked = false) => ({
    searchQuery,
    hits,
    ctr: clicked ? 0.5 : 0,
    topClickedPage: clicked ? '/cli' : null,
    lastSearchedAt: '2026-11-17T10:00:00Z'
  })

  it('counts after the merge only the searches the gap counts: those with no click', async () => {
    // In the whole range `--watch` was searched 48 times with no click; `--watch?` (one gap with it,
    // but a row of its own) had clicks, so it is not in the 48.
    const { causes } = await split(
      {
        searches: [row('--watch', 30), row('--watch?', 10, true)],
        totalSearches: 40,
        nextCursor: null
      },
      { kind: 'search', text: '--watch', count: 48 }
    )
    expect(causes[0]).toMatchObject({ before: 18, after: 30 })
  })

  it('a question some of whose turns had no readable time is not split: its counts would not add up', async () => {
    const question = { kind: 'question' as const, text: 'how do I use --watch?', count: 5 }
    const asked = (times: number[]) =>
      splitAtMerges([{ gap: question, change: change({}), terms: ['--watch'] }], {
        client: answering(null),
        projectId: 'p',
        range: { dateFrom: '2026-11-01', dateTo: '2026-11-18', fromAt: WINDOW.from },
        limits: { deadline: Date.now() + 60_000, cap: new RequestCap(5) },
        askedAt: new Map([['how do i use --watch', times]])
      })
    const at = (day: number) => Date.parse(`2026-11-${String(day).padStart(2, '0')}T09:00:00Z`)
    expect((await asked([at(2), at(12), at(13), at(14), at(15)])).causes[0]).toMatchObject({
      before: 1,
      after: 4
    })
    const partial = await asked([at(2), at(12)])
    expect(partial.causes[0]).toMatchObject({ before: null, after: null })
    expect(partial.notices.join(' ')).toMatch(/could not be split/)
  })

  it('a gap whose row after the merge came out of shape is not split, not all before', async () => {
    const { causes, notices } = await split(
      {
        searches: [{ ...row('--watch', 30), hits: '30' }, row('other', 3)],
        totalSearches: 33,
        nextCursor: null
      },
      { kind: 'search', text: '--watch', count: 48 }
    )
    expect(causes[0]).toMatchObject({ before: null, after: null })
    expect(notices.join(' ')).toMatch(/could not be split/)
  })
})
