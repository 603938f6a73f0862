import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { csvField } from '../../src/visitors/file.js'
import { ExportFile } from '../../src/visitors/file.js'
import { aiShare, renderVisitorsSummary } from '../../src/visitors/summary.js'
import { TopPages } from '../../src/visitors/top.js'
import { parseCsv } from '../support/csv.js'
import { temporaryFolder } from '../support/temporary.js'

const meta = {
  dateFrom: '2026-11-14',
  dateTo: '2026-11-21',
  exportedAt: '2026-11-21T12:00:00.000Z',
  offset: 0
}
const totals = { human: 10, ai: 5, total: 12 }
const rows = [
  { path: '/a', human: 3, ai: 1, total: 4 },
  { path: '=HYPERLINK("x")', human: 1, ai: 0, total: 1 },
  { path: '/with,comma "and quotes"', human: 0, ai: 2, total: 2 }
]

describe('csvField', () => {
  it.each([
    ['/docs/a', '/docs/a'],
    ['/a,b', '"/a,b"'],
    ['/say "hi"', '"/say ""hi"""'],
    ['=1+1', `"'=1+1"`],
    ['+1', `"'+1"`],
    ['-1', `"'-1"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tx', `"'\tx"`],
    ['/line\nbreak', '"/line\nbreak"']
  ])('%j → %j', (value, field) => expect(csvField(value)).toBe(field))
})

describe('ExportFile', () => {
  const dir = temporaryFolder('export-file-')

  it('writes the JSON document the README describes', async () => {
    const file = path.join(dir, 'nested', 'v.json')
    const out = new ExportFile(file, 'json', meta)
    await out.begin(totals)
    await out.rows(rows.slice(0, 2))
    await out.rows(rows.slice(2))
    await out.commit({ complete: true, nextOffset: null })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      ...meta,
      totals,
      visitors: rows,
      complete: true,
      nextOffset: null
    })
  })

  it('ends a JSON file with where a later run goes on, when the export stopped early', async () => {
    const file = path.join(dir, 'part.json')
    const out = new ExportFile(file, 'json', { ...meta, offset: 500 })
    await out.begin(totals)
    await out.rows(rows)
    await out.commit({ complete: false, nextOffset: 750 })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      offset: 500,
      visitors: rows,
      complete: false,
      nextOffset: 750
    })
  })

  it('writes valid JSON with no rows', async () => {
    const file = path.join(dir, 'empty.json')
    const out = new ExportFile(file, 'json', meta)
    await out.begin(totals)
    await out.commit({ complete: true, nextOffset: null })
    expect(JSON.parse(readFileSync(file, 'utf8')).visitors).toEqual([])
  })

  it('writes CSV that reads back row by row, formulas defused', async () => {
    const file = path.join(dir, 'v.csv')
    const out = new ExportFile(file, 'csv', meta)
    await out.begin(totals)
    await out.rows(rows)
    await out.commit({ complete: true, nextOffset: null })
    const table = parseCsv(readFileSync(file, 'utf8'))
    expect(table[0]).toEqual(['path', 'human', 'ai', 'total'])
    expect(table.slice(1)).toEqual([
      ['/a', '3', '1', '4'],
      [`'=HYPERLINK("x")`, '1', '0', '1'],
      ['/with,comma "and quotes"', '0', '2', '2']
    ])
  })

  it('leaves an existing file untouched and no temporary file when discarded', async () => {
    const file = path.join(dir, 'keep.json')
    writeFileSync(file, 'previous export')
    const out = new ExportFile(file, 'json', meta)
    await out.begin(totals)
    await out.rows(rows)
    await out.discard()
    expect(readFileSync(file, 'utf8')).toBe('previous export')
    expect(readdirSync(dir).filter(f => f.includes('partial'))).toEqual([])
  })
})

describe('TopPages', () => {
  it('keeps the best n by the chosen key, ties by path', () => {
    const top = new TopPages(3, 'ai')
    const all = Array.from({ length: 50 }, (_, i) => ({
      path: `/p${i}`,
      human: i,
      ai: (i * 7) % 10,
      total: i
    }))
    for (const row of all) top.add(row)
    const expected = [...all].sort((a, b) => b.ai - a.ai || (a.path < b.path ? -1 : 1)).slice(0, 3)
    expect(top.list()).toEqual(expected)
  })
})

describe('visitors summary', () => {
  it('shows totals, AI share, a horizontal Mermaid bar chart of the totals and the top table', () => {
    const md = renderVisitorsSummary({
      ...meta,
      totals,
      top: rows,
      sortBy: 'total',
      rows: 3,
      requests: 1,
      file: 'v.json'
    })
    expect(md).toContain('## Mintlify visitors: 2026-11-14 to 2026-11-21 (exclusive)')
    expect(md).toContain('| AI share | 41.7% |')
    expect(md).toContain('| Total (deduplicated, not the sum) | 12 |')
    expect(md).toMatch(/```mermaid\nxychart-beta horizontal\n/)
    expect(md).toContain(`x-axis ["/a", "=HYPERLINK('x')", "/with,comma 'and quotes'"]`)
    expect(md).toContain('y-axis "Unique visitors" 0 --> 4')
    expect(md.match(/^ {2}bar /gm)).toEqual(['  bar '])
    expect(md).toContain('bar [4, 1, 2]')
    expect(md).toContain('| # | Page | Total | Human | AI | AI share |')
    expect(md).toContain('| 2 | `=HYPERLINK("x")` | 1 | 1 | 0 | 0.0% |')
    expect(md).toContain('Exported 3 pages in 1 request to `v.json`.')
    expect(aiShare({ human: 0, ai: 0, total: 0 })).toBe('0.0%')
  })
})
