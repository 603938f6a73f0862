// Mermaid's parser needs a DOM (DOMPurify, which takes the window it finds when it loads); a jsdom
// window, given for this file only, lets Mermaid itself read the chart. Not as the file's vitest
// environment: a file in another environment cannot share a worker with the others, and the two
// workers started around it cost the suite seconds of CPU.
import { JSDOM } from 'jsdom'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { VisitorRow } from '../../src/mintlify/analytics.js'
import type { SortKey } from '../../src/visitors/settings.js'
import { axisMax, renderVisitorsSummary, visitorsChart } from '../../src/visitors/summary.js'
import { TopPages } from '../../src/visitors/top.js'
import { generatedRow } from '../simulator/visitors.js'

const dom = new JSDOM('')
let mermaid: (typeof import('mermaid'))['default']
beforeAll(async () => {
  vi.stubGlobal('window', dom.window)
  vi.stubGlobal('document', dom.window.document)
  mermaid = (await import('mermaid')).default
})
afterAll(() => {
  vi.unstubAllGlobals()
  dom.window.close()
})

interface ChartData {
  yAxis: { type: string; min: number; max: number }
  xAxis: { type: string; categories: string[] }
  plots: { type: string; data: [string, number][] }[]
}

/** The chart as Mermaid reads it: parsed by its own grammar, then its data as it would draw it. */
async function readChart(lines: string[]): Promise<{ data: ChartData; orientation: string }> {
  expect(lines[0]).toBe('```mermaid')
  expect(lines.at(-1)).toBe('```')
  const text = lines.slice(1, -1).join('\n')
  await expect(mermaid.parse(text)).resolves.toMatchObject({ diagramType: 'xychart' })
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text)
  const db = diagram.db as unknown as {
    getXYChartData(): ChartData
    getChartConfig(): { chartOrientation: string }
  }
  return { data: db.getXYChartData(), orientation: db.getChartConfig().chartOrientation }
}

function ranked(rows: VisitorRow[], key: SortKey, size = 10): VisitorRow[] {
  const top = new TopPages(size, key)
  for (const row of rows) top.add(row)
  return top.list()
}

const site = Array.from({ length: 42 }, (_, i) => generatedRow(i))

describe('the visitors chart', () => {
  it('draws one horizontal bar per page, the deduplicated total, on an axis from zero, in the table order', async () => {
    const top = ranked(site, 'total')
    const { data, orientation } = await readChart(visitorsChart(top, 'total'))
    expect(orientation).toBe('horizontal')
    expect(data.xAxis.categories).toEqual(top.map(r => r.path))
    // One series: human and AI are not stacked as if they added up to the total.
    expect(data.plots).toHaveLength(1)
    expect(data.plots[0]?.type).toBe('bar')
    expect(data.plots[0]?.data).toEqual(top.map(r => [r.path, r.total]))
    expect(top.some(r => r.total !== r.human + r.ai)).toBe(true)
    expect(data.yAxis.min).toBe(0)
    expect(data.yAxis.max).toBeGreaterThanOrEqual(Math.max(...top.map(r => r.total)))
    const summary = renderVisitorsSummary({
      totals: { human: 1, ai: 1, total: 1 },
      top,
      sortBy: 'total',
      rows: 42,
      requests: 1,
      file: 'v.json'
    })
    const tableOrder = summary
      .split('\n')
      .filter(line => /^\| \d+ \| `/.test(line))
      .map(line => line.split('`')[1])
    expect(tableOrder).toEqual(data.xAxis.categories)
  })

  it.each(['ai', 'human'] as const)(
    'with sort-by: %s, draws the count the pages are ranked by',
    async key => {
      const top = ranked(site, key, 5)
      const { data } = await readChart(visitorsChart(top, key))
      expect(data.plots[0]?.data).toEqual(top.map(r => [r.path, r[key]]))
      expect(data.yAxis.min).toBe(0)
    }
  )

  it('keeps every label one readable string, whatever the path holds', async () => {
    const paths = [
      '/a "quoted" path',
      '/back\\slash',
      '/brackets], ["and", commas',
      '/entity #quot; and #35;',
      '/comment %% not a comment',
      '/html <b>bold</b>',
      '/line\nbreak\r\nand\ttab',
      '/ünïcödé/页面/🚀',
      `/${'very-long-segment/'.repeat(10)}`,
      '/percent%20encoded'
    ]
    const top = paths.map((path, i) => ({ path, human: i, ai: 1, total: i + 1 }))
    const { data } = await readChart(visitorsChart(top, 'total'))
    expect(data.xAxis.categories).toHaveLength(paths.length)
    expect(data.plots[0]?.data.map(([, value]) => value)).toEqual(top.map(r => r.total))
    for (const label of data.xAxis.categories) {
      expect(Array.from(label).length).toBeLessThanOrEqual(40)
      expect(label).not.toMatch(/["<>\n]/)
    }
    expect(data.xAxis.categories[4]).toBe('/comment % not a comment')
    expect(data.xAxis.categories[9]).toBe('/percent%20encoded')
  })

  it('charts at most 15 pages and still parses with one page or none with visitors', async () => {
    const many = await readChart(visitorsChart(ranked(site, 'total', 30), 'total'))
    expect(many.data.xAxis.categories).toHaveLength(15)
    const zero = await readChart(
      visitorsChart([{ path: '/empty', human: 0, ai: 0, total: 0 }], 'total')
    )
    expect(zero.data.yAxis).toMatchObject({ min: 0, max: 1 })
  })

  it('ends the axis at a round number at or above the largest bar', () => {
    expect([0, 1, 7, 10, 11, 1840, 6764, 10_000, 10_001].map(axisMax)).toEqual([
      1, 1, 8, 10, 12, 2000, 8000, 10_000, 12_000
    ])
  })

  it('says "1 page in 1 request", and plurals for other counts', () => {
    const base = { totals: { human: 1, ai: 0, total: 1 }, sortBy: 'total' as const, file: 'v.csv' }
    const one = renderVisitorsSummary({ ...base, top: site.slice(0, 1), rows: 1, requests: 1 })
    expect(one).toContain('Exported 1 page in 1 request to `v.csv`.')
    expect(one).toContain('### The top page by unique visitors')
    const many = renderVisitorsSummary({ ...base, top: site.slice(0, 2), rows: 1250, requests: 5 })
    expect(many).toContain('Exported 1,250 pages in 5 requests to `v.csv`.')
    expect(many).toContain('### Top 2 pages by unique visitors')
  })
})
