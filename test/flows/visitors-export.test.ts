import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { type VisitorRow, generatedRow } from '../simulator/visitors.js'
import { parseCsv } from '../support/csv.js'
import { expectCleanFailure, expectNoSecret } from '../support/assertions.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess, startInProcess } from '../support/run-in-process.js'
import { HeldClock, VirtualClock } from '../support/virtual-clock.js'
import { temporaryFolder } from '../support/temporary.js'

const clock = new VirtualClock()
let sim: Simulator
beforeAll(async () => {
  sim = await Simulator.start({ now: clock.wallNow })
})
afterAll(() => sim.close())
beforeEach(() => {
  sim.reset()
})

const run = (
  inputs: Record<string, string> = {},
  files?: Record<string, string>,
  workspace?: string
) =>
  runInProcess({
    entry: 'dist/visitors/index.js',
    inputs: { 'api-key': SIM_API_KEY, 'project-id': SIM_PROJECT, 'api-url': sim.url, ...inputs },
    files,
    workspace,
    clock
  })

const expected = (n: number): VisitorRow[] => Array.from({ length: n }, (_, i) => generatedRow(i))
const readJson = (result: RunResult, file = 'mintlify-visitors.json') =>
  JSON.parse(readFileSync(path.join(result.workspace, file), 'utf8')) as {
    dateFrom: string | null
    dateTo: string | null
    exportedAt: string
    totals: { human: number; ai: number; total: number }
    visitors: VisitorRow[]
  }
const leftovers = (result: RunResult) =>
  readdirSync(result.workspace).filter(f => f.includes('partial'))

describe('the visitors sub-action, run in-process from source', () => {
  it.each([
    [0, 1],
    [1, 1],
    [250, 1],
    [251, 2],
    [10_001, 41]
  ])('exports %d rows in exactly %d requests, every row intact', async (rows, requests) => {
    sim.setVisitors(rows)
    const result = await run({ 'date-from': '2026-11-01', 'date-to': '2026-11-08' })
    expect(result.code).toBe(0)
    const visitorRequests = sim.requests('visitors')
    expect(visitorRequests).toHaveLength(requests)
    expect(visitorRequests.map(r => r.query)).toEqual(
      Array.from({ length: requests }, (_, i) => ({
        dateFrom: '2026-11-01',
        dateTo: '2026-11-08',
        limit: '250',
        offset: String(i * 250)
      }))
    )
    const doc = readJson(result)
    expect(doc.visitors).toEqual(expected(rows))
    expect(doc).toMatchObject({ dateFrom: '2026-11-01', dateTo: '2026-11-08' })
    expect(Date.parse(doc.exportedAt)).not.toBeNaN()
    expect(result.outputs).toMatchObject({
      human: String(doc.totals.human),
      ai: String(doc.totals.ai),
      total: String(doc.totals.total),
      pages: String(rows),
      file: 'mintlify-visitors.json'
    })
    const top = [...expected(rows)]
      .sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : 1))
      .slice(0, 10)
    expect(JSON.parse(result.outputs['top-paths'] as string)).toEqual(top.map(r => r.path))
    expect(leftovers(result)).toEqual([])
  })

  it('writes CSV that reads back row by row, with page-size and sort-by honoured', async () => {
    sim.setVisitors(600)
    const result = await run({
      'output-file': 'out/visitors.csv',
      'page-size': '100',
      'sort-by': 'ai',
      top: '5'
    })
    expect(result.code).toBe(0)
    expect(sim.requests('visitors')).toHaveLength(6)
    const table = parseCsv(readFileSync(path.join(result.workspace, 'out/visitors.csv'), 'utf8'))
    expect(table[0]).toEqual(['path', 'human', 'ai', 'total'])
    expect(table.slice(1)).toEqual(
      expected(600).map(r => [r.path, String(r.human), String(r.ai), String(r.total)])
    )
    const byAi = [...expected(600)]
      .sort((a, b) => b.ai - a.ai || (a.path < b.path ? -1 : 1))
      .slice(0, 5)
    expect(JSON.parse(result.outputs['top-paths'] as string)).toEqual(byAi.map(r => r.path))
  })

  it("shows no api-key that the chart's labels would join back together", async () => {
    // The service echoes the key split by characters a chart label drops (`<`, `#`, `;`): the
    // client's redaction sees no key in the path, and the label would show it whole.
    const split = `/${SIM_API_KEY.slice(0, 9)}<${SIM_API_KEY.slice(9, 15)};${SIM_API_KEY.slice(15)}`
    sim.setVisitors([
      { path: split, human: 9, ai: 1, total: 10 },
      { path: '/docs/ok', human: 1, ai: 0, total: 1 }
    ])
    const result = await run({ 'output-file': 'v.json' })
    expect(result.code).toBe(0)
    expectNoSecret('the job summary', result.summary, [SIM_API_KEY])
    expect(result.summary).toContain('x-axis ["/***", "/docs/ok"]')
    expectNoSecret('every output', JSON.stringify(result.outputs), [SIM_API_KEY])
    expectNoSecret('the log', result.log.replace(/^::add-mask::.*$/gm, ''), [SIM_API_KEY])
    const file = readFileSync(path.join(result.workspace, 'v.json'), 'utf8')
    expectNoSecret('the export', file, [SIM_API_KEY])
  })

  it('keeps a formula-like path from becoming a spreadsheet formula', async () => {
    const rows = [
      { path: '=cmd|" /C calc"!A0', human: 5, ai: 1, total: 6 },
      { path: '@SUM(1+1)', human: 1, ai: 1, total: 2 },
      { path: '/docs/ok', human: 1, ai: 0, total: 1 }
    ]
    sim.setVisitors(rows)
    const result = await run({ 'output-file': 'v.csv' })
    expect(result.code).toBe(0)
    const text = readFileSync(path.join(result.workspace, 'v.csv'), 'utf8')
    expect(
      parseCsv(text)
        .slice(1)
        .map(r => r[0])
    ).toEqual([`'=cmd|" /C calc"!A0`, "'@SUM(1+1)", '/docs/ok'])
    expect(
      text
        .split('\n')
        .slice(1)
        .every(line => !/^[=+\-@]/.test(line))
    ).toBe(true)
  })

  it('writes the job summary: totals, AI share, a Mermaid chart and the top pages', async () => {
    sim.setVisitors(30)
    const result = await run({ 'date-from': '2026-11-01', 'date-to': '2026-11-08', top: '3' })
    expect(result.summary).toContain('## Mintlify visitors: 2026-11-01 to 2026-11-08 (exclusive)')
    expect(result.summary).toMatch(/\| AI share \| \d+\.\d% \|/)
    expect(result.summary).toContain('```mermaid\nxychart-beta horizontal')
    expect(result.summary).toContain('### Top 3 pages by unique visitors')
    expect(result.summary).toContain('Exported 30 pages in 1 request to')
  })

  it.each([
    [
      'repeats a page',
      'stuck-has-more',
      /the service sent the row for '\/docs\/page-1' again at offset 250/,
      2
    ],
    [
      'alternates two pages',
      'alternating-has-more',
      /the service sent the page of offset 0 again at offset 500 \(from '\/docs\/page-1'\)/,
      3
    ],
    [
      'cycles through three pages',
      'cycling-has-more',
      /the service sent the page of offset 0 again at offset 750 \(from '\/docs\/page-1'\)/,
      4
    ],
    [
      'sends pages that overlap',
      'overlapping-pages',
      /the service sent the row for '\/docs\/page-250' again at offset 250/,
      2
    ],
    [
      'sends an empty page',
      'empty-has-more',
      /the service sent an empty page at offset 0 but said there was more/,
      1
    ]
  ] as const)(
    'fails, keeping the earlier file, when the service %s while saying hasMore',
    async (_name, kind, message, requests) => {
      sim.setVisitors(600)
      sim.inject({ route: 'visitors', kind, times: 1000 })
      const earlier = '{"earlier": true}\n'
      const result = await run({}, { 'mintlify-visitors.json': earlier })
      expectCleanFailure(result, new RegExp(`The export is incomplete: ${message.source}`), [
        SIM_API_KEY
      ])
      expect(result.log).toMatch(
        /Nothing was written to mintlify-visitors.json; an earlier file there is as it was/
      )
      expect(sim.requests('visitors')).toHaveLength(requests)
      expect(readFileSync(path.join(result.workspace, 'mintlify-visitors.json'), 'utf8')).toBe(
        earlier
      )
      expect(readdirSync(result.workspace).filter(f => f.endsWith('.partial'))).toEqual([])
    }
  )

  it('stops at max-requests, writes the rows read and says where a later run goes on', async () => {
    sim.setVisitors(600)
    const result = await run({ 'page-size': '100', 'max-requests': '3' })
    expect(result.code).toBe(0)
    expect(sim.requests('visitors')).toHaveLength(3)
    expect(result.log).toMatch(
      /::warning::The export stopped before the last row: 'max-requests' \(3, retries included\) was reached and the service still said there was more\. mintlify-visitors\.json holds the 300 rows read \(offset 0 to 299\), and complete is false\. To go on, run the export again with 'offset: 300' \(the next-offset output\) and another 'output-file'; each run of 3 requests exports up to 300 rows, and the organisation may make 100 analytics requests an hour\./
    )
    expect(result.outputs).toMatchObject({ complete: 'false', 'next-offset': '300', pages: '300' })
    const doc = readJson(result)
    expect(doc.visitors).toEqual(expected(300))
    expect(doc).toMatchObject({ offset: 0, complete: false, nextOffset: 300 })
    expect(result.summary).toContain(
      "> ⚠️ Not complete: the export stopped before the last row, after 300 pages. To go on, run the export again with 'offset: 300'"
    )
    expect(leftovers(result)).toEqual([])
  })

  it('goes on from an offset, so the parts of a stopped export add up to every row once', async () => {
    sim.setVisitors(1_234)
    const parts: VisitorRow[][] = []
    let offset = '0'
    for (let part = 0; part < 5 && offset !== ''; part++) {
      const result = await run({ offset, 'max-requests': '2', 'output-file': `v-${part}.csv` })
      expect(result.code).toBe(0)
      const table = parseCsv(readFileSync(path.join(result.workspace, `v-${part}.csv`), 'utf8'))
      parts.push(
        table.slice(1).map(([p, human, ai, total]) => ({
          path: p as string,
          human: Number(human),
          ai: Number(ai),
          total: Number(total)
        }))
      )
      expect(result.outputs.complete).toBe(String(result.outputs['next-offset'] === ''))
      offset = result.outputs['next-offset'] as string
    }
    expect(offset).toBe('')
    expect(parts.map(p => p.length)).toEqual([500, 500, 234])
    expect(parts.flat()).toEqual(expected(1_234))
    expect(sim.requests('visitors').map(r => r.query.offset)).toEqual([
      '0',
      '250',
      '500',
      '750',
      '1000'
    ])
  })

  it('counts retries against max-requests', async () => {
    sim.setVisitors(600)
    sim.inject({ route: 'visitors', kind: 'status', status: 429, retryAfter: '1' })
    const result = await run({ 'max-requests': '3' })
    expect(result.code).toBe(0)
    expect(sim.requests('visitors').map(r => r.status)).toEqual([429, 200, 200])
    expect(result.outputs).toMatchObject({ complete: 'false', 'next-offset': '500', pages: '500' })
  })

  it('fails, writing nothing, when max-requests runs out before the first page', async () => {
    sim.inject({ route: 'visitors', kind: 'status', status: 503 })
    const result = await run({ 'max-requests': '1' }, { 'mintlify-visitors.json': 'last week' })
    expectCleanFailure(
      result,
      /The export is incomplete: 'max-requests' \(1, retries included\) was reached and no request was left to try again to read unique visitors \(offset 0\)/,
      [SIM_API_KEY]
    )
    expect(readFileSync(path.join(result.workspace, 'mintlify-visitors.json'), 'utf8')).toBe(
      'last week'
    )
  })

  it.each([
    ['a negative count', { human: -1 }, "'human' has the wrong type or value (-1)"],
    ['a count as text', { human: '1' }, "'human' has the wrong type or value (a text)"],
    ['no path', { path: null }, "'path' has the wrong type or value (null)"]
  ])(
    'skips and counts a row with %s, naming its place and field, and exports the rest',
    async (_name, fields, problem) => {
      sim.setVisitors(300)
      sim.inject({ route: 'visitors', kind: 'tamper-row', row: 2, fields, skip: 1 })
      const result = await run()
      expect(result.code).toBe(0)
      expect(result.log).toContain(
        `::warning::Skipped a visitors row the service sent that does not match its API document: the row at offset 252 (row 3 of the page): ${problem}.`
      )
      expect(result.log).toMatch(
        /::warning::The export is not complete: 1 row the service sent did not match its API document and was left out/
      )
      expect(result.outputs).toMatchObject({ complete: 'false', pages: '299' })
      const rows = readJson(result).visitors
      expect(rows).toHaveLength(299)
      expect(rows).toEqual(expected(300).filter((_, i) => i !== 252))
      expect(result.summary).toContain(
        '⚠️ Not complete: 1 row the service sent did not match its API document and was left out (first: the row at offset 252'
      )
    }
  )

  it('takes fractional counts, which the document allows (approximate distinct visitors)', async () => {
    sim.setVisitors([{ path: '/a', human: 1.5, ai: 0.25, total: 1.6 }])
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ complete: 'true', pages: '1' })
    expect(readJson(result).visitors).toEqual([{ path: '/a', human: 1.5, ai: 0.25, total: 1.6 }])
  })

  it('fails, naming the field, when the totals break the document', async () => {
    sim.inject({
      route: 'visitors',
      kind: 'tamper',
      fields: { totals: { human: 'many', ai: 0, total: 0 } }
    })
    const result = await run()
    expectCleanFailure(
      result,
      /The service's answer to the visitors request is not what its API document describes \('totals\.human' has the wrong type or value \(a text\)\)\./,
      [SIM_API_KEY]
    )
    expect(existsSync(path.join(result.workspace, 'mintlify-visitors.json'))).toBe(false)
  })

  it('fails before any request when output-file is a folder', async () => {
    const result = await run({ 'output-file': 'out' }, { 'out/keep.txt': 'x' })
    expectCleanFailure(result, /Input 'output-file': 'out' exists and is not a file/, [SIM_API_KEY])
    expect(sim.requests('visitors')).toHaveLength(0)
  })

  it('never writes through a planted link, and removes temporary files of killed runs', async () => {
    const outside = temporaryFolder('outside-')
    const victim = path.join(outside, 'victim.txt')
    writeFileSync(victim, 'precious')
    // A workspace full of links named as earlier runs' temporary files were, or could be.
    const workspace = temporaryFolder('planted-')
    for (let i = 0; i < 400; i++)
      symlinkSync(victim, path.join(workspace, `.mintlify-visitors.json.${i}.partial`))
    const result = await run({}, undefined, workspace)
    expect(result.code).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('precious')
    expect(readdirSync(workspace).filter(f => f.endsWith('.partial'))).toEqual([])
  })

  it('waits out a 429 with Retry-After mid-export', async () => {
    sim.setVisitors(600)
    sim.inject({ route: 'visitors', kind: 'status', status: 429, retryAfter: '1', skip: 1 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(sim.requests('visitors').map(r => r.status)).toEqual([200, 429, 200, 200])
    expect(readJson(result).visitors).toEqual(expected(600))
  })

  it('stops, keeping the rows read, when Retry-After outlasts the timeout mid-export', async () => {
    sim.setVisitors(600)
    sim.inject({ route: 'visitors', kind: 'status', status: 429, retryAfter: '3600', skip: 1 })
    const result = await run({}, { 'mintlify-visitors.json': 'last week' })
    expect(result.code).toBe(0)
    expect(result.log).toMatch(
      /::warning::The export stopped before the last row: the service rate limited the request: rate limited until \d{4}-\S+, which is past this step's time limit\. mintlify-visitors\.json holds the 250 rows read \(offset 0 to 249\), and complete is false\. To go on, run the export again with 'offset: 250'/
    )
    expect(result.outputs).toMatchObject({ complete: 'false', 'next-offset': '250', pages: '250' })
    expect(readJson(result).visitors).toEqual(expected(250))
    expect(leftovers(result)).toEqual([])
  })

  it('fails with "rate limited until" and writes nothing when the first page is rate limited past the timeout', async () => {
    sim.setVisitors(600)
    sim.inject({ route: 'visitors', kind: 'status', status: 429, retryAfter: '3600' })
    const result = await run({}, { 'mintlify-visitors.json': 'last week' })
    expectCleanFailure(
      result,
      /The service rate limited the request: rate limited until \d{4}-.* Nothing was written/,
      [SIM_API_KEY]
    )
    expect(readFileSync(path.join(result.workspace, 'mintlify-visitors.json'), 'utf8')).toBe(
      'last week'
    )
    expect(leftovers(result)).toEqual([])
    expect(result.outputs).toEqual({})
  })

  it('retries a 500 mid-export and completes', async () => {
    sim.setVisitors(600)
    sim.inject({ route: 'visitors', kind: 'status', status: 500, skip: 1 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(sim.requests('visitors').map(r => r.status)).toEqual([200, 500, 200, 200])
    expect(readJson(result).visitors).toEqual(expected(600))
  })

  it("stops at the runner's cancel while waiting out a 429, keeping the earlier file", async () => {
    sim.setVisitors(600)
    sim.inject({ route: 'visitors', kind: 'status', status: 429, retryAfter: '1', skip: 1 })
    const running = startInProcess({
      entry: 'dist/visitors/index.js',
      inputs: { 'api-key': SIM_API_KEY, 'project-id': SIM_PROJECT, 'api-url': sim.url },
      files: { 'mintlify-visitors.json': 'last week' },
      clock: new HeldClock()
    })
    await running.waitFor(/trying again in/)
    running.cancel('SIGINT')
    const result = await running.done
    expectCleanFailure(result, /Cancelled\. Nothing was written/, [SIM_API_KEY])
    expect(sim.requests('visitors').map(r => r.status)).toEqual([200, 429])
    expect(readFileSync(path.join(result.workspace, 'mintlify-visitors.json'), 'utf8')).toBe(
      'last week'
    )
    expect(leftovers(result)).toEqual([])
    expect(result.outputs).toEqual({})
  })

  it('resolves relative dates to UTC days', async () => {
    sim.setVisitors(1)
    // The action's wall clock: the virtual one, moved on by the pauses of earlier tests.
    const day = (offset: number) =>
      new Date(clock.wallNow() - offset * 86_400_000).toISOString().slice(0, 10)
    const before = [day(7), day(0)]
    const result = await run({ 'date-from': '-7d', 'date-to': 'today' })
    const after = [day(7), day(0)]
    const query = sim.requests('visitors')[0]?.query
    expect([before, after]).toContainEqual([query?.dateFrom, query?.dateTo])
    expect(result.code).toBe(0)
  })

  it.each([
    [{ 'date-from': 'someday' }, /Input 'date-from' must be a date/],
    [
      { 'date-from': '2026-11-08', 'date-to': '2026-11-01' },
      /Input 'date-from' \(2026-11-08\) must be before 'date-to'/
    ],
    [{ 'page-size': '500' }, /Input 'page-size' must be a whole number from 1 to 250/],
    [{ offset: '-250' }, /Input 'offset' must be a whole number from 0 to 1000000000/],
    [{ format: 'xlsx' }, /Input 'format' must be one of auto, json, csv/],
    [{ 'sort-by': 'pages' }, /Input 'sort-by' must be one of total, human, ai/],
    [
      { 'output-file': '../../etc/v.json' },
      /Input 'output-file' must be a file path inside the workspace/
    ],
    [{ 'api-url': 'http://api.mintlify.com' }, /Input 'api-url' must use https:\/\//],
    [{ 'api-key': '' }, /Input 'api-key' is required/],
    [
      { 'api-key': 'mint_dsc_0123456789' },
      /Input 'api-key' holds an assistant API key \(it starts with mint_dsc_\)/
    ]
  ])('refuses %j before any request', async (override, message) => {
    const result = await run(override)
    expectCleanFailure(result, message, [SIM_API_KEY])
    expect(sim.exchanges).toHaveLength(0)
    expect(existsSync(path.join(result.workspace, 'mintlify-visitors.json'))).toBe(false)
  })

  it('says to check the key on 401, and that keys expire', async () => {
    const result = await run({ 'api-key': 'mint_wrong' })
    expectCleanFailure(
      result,
      /The service refused the API key \(HTTP 401.*keys expire after 90 days/,
      [SIM_API_KEY, 'mint_wrong']
    )
  })

  it('says a 403 may be the IP allowlist, not a read-only key, for a read', async () => {
    sim.inject({ route: 'visitors', kind: 'status', status: 403 })
    const result = await run()
    expectCleanFailure(
      result,
      /The service refused the request to read unique visitors \(offset 0\) with this API key \(HTTP 403: Simulated HTTP 403\)\. The key is valid, but the runner's address may be outside the key's IP allowlist/,
      [SIM_API_KEY]
    )
    expect(result.log).not.toContain('read-only')
  })
})
