import type { VisitorCounts, VisitorRow } from '../mintlify/analytics.js'
import { codeSpan } from '../action/markdown.js'
import type { SortKey } from './formats.js'

export interface VisitorsReport {
  dateFrom?: string
  dateTo?: string
  totals: VisitorCounts
  top: VisitorRow[]
  sortBy: SortKey
  rows: number
  requests: number
  file: string
}

const CHART_PAGES = 15
const LABEL_LENGTH = 32
const number = (n: number): string => n.toLocaleString('en-US')

/** AI visitors as a share of all (deduplicated) visitors. */
export function aiShare(totals: VisitorCounts): string {
  return totals.total > 0 ? `${((totals.ai / totals.total) * 100).toFixed(1)}%` : '0.0%'
}

function range(from?: string, to?: string): string {
  if (from && to) return `${from} to ${to} (exclusive)`
  if (from) return `from ${from}`
  if (to) return `before ${to}`
  return 'all dates'
}

/** A label Mermaid reads as one quoted string whatever the path holds. */
function chartLabel(path: string): string {
  const clean = path.replace(/["`\\\r\n\t]/g, "'").replace(/[<>]/g, '')
  return `"${clean.length > LABEL_LENGTH ? `${clean.slice(0, LABEL_LENGTH - 1)}…` : clean}"`
}

export function renderVisitorsSummary(report: VisitorsReport): string {
  const { totals, top } = report
  const lines = [
    // The dates were validated as dates: nothing in them needs escaping.
    `## Mintlify visitors: ${range(report.dateFrom, report.dateTo)}`,
    '',
    '| | Unique visitors |',
    '|---|---:|',
    `| Human | ${number(totals.human)} |`,
    `| AI | ${number(totals.ai)} |`,
    `| Total (deduplicated, not the sum) | ${number(totals.total)} |`,
    `| AI share | ${aiShare(totals)} |`,
    ''
  ]
  if (top.length === 0) {
    lines.push('No page had visitors in this range.', '')
  } else {
    const charted = top.slice(0, CHART_PAGES)
    lines.push(
      `### Top ${top.length} pages by ${report.sortBy === 'ai' ? 'AI' : report.sortBy} visitors`,
      '',
      '```mermaid',
      'xychart-beta',
      '  title "Human and AI visitors per page (the lower bar is AI)"',
      `  x-axis [${charted.map(r => chartLabel(r.path)).join(', ')}]`,
      '  y-axis "Unique visitors"',
      `  bar [${charted.map(r => r.human + r.ai).join(', ')}]`,
      `  bar [${charted.map(r => r.ai).join(', ')}]`,
      '```',
      '',
      '| # | Page | Human | AI | Total |',
      '|---:|---|---:|---:|---:|',
      ...top.map(
        (r, i) =>
          `| ${i + 1} | ${codeSpan(r.path)} | ${number(r.human)} | ${number(r.ai)} | ${number(r.total)} |`
      ),
      ''
    )
  }
  lines.push(
    `Exported ${number(report.rows)} pages in ${report.requests} requests to ${codeSpan(report.file)}.`,
    ''
  )
  return lines.join('\n')
}
