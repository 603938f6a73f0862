import type { VisitorCounts, VisitorRow } from '../mintlify/analytics.js'
import { codeSpan, escapeMarkdown } from '../runner/markdown.js'
import { rangeText } from '../runner/dates.js'
import { counted, formatCount } from '../runner/text.js'
import type { SortKey } from './settings.js'

export interface VisitorsReport {
  dateFrom?: string
  dateTo?: string
  totals: VisitorCounts
  top: VisitorRow[]
  sortBy: SortKey
  rows: number
  requests: number
  file: string
  /** Rows left out because they did not match the API document (none when absent). */
  skipped?: number
  firstSkipped?: string | null
  /** The first row exported (0 when absent). */
  offset?: number
  /** How to go on when the export stopped before the last row; null or absent when it did not. */
  resume?: string | null
}

const CHART_PAGES = 15
const LABEL_LENGTH = 40

/** What the bars measure: the count the pages are ranked by, so bars and table share one order. */
const CHART_TITLES: Record<SortKey, string> = {
  total: 'Unique visitors per page (human and AI, each visitor counted once)',
  human: 'Unique human visitors per page',
  ai: 'Unique AI visitors per page'
}
const AXIS_LABELS: Record<SortKey, string> = {
  total: 'Unique visitors',
  human: 'Unique human visitors',
  ai: 'Unique AI visitors'
}
const RANKED_BY: Record<SortKey, string> = { total: 'unique', human: 'human', ai: 'AI' }

/** AI visitors as a share of all (deduplicated) visitors. */
export function aiShare(totals: VisitorCounts): string {
  return totals.total > 0 ? `${((totals.ai / totals.total) * 100).toFixed(1)}%` : '0.0%'
}

/**
 * A label Mermaid reads as one quoted string whatever the path holds: no quote, backslash, line
 * break, angle bracket (HTML), `#` or `;` (Mermaid's `#name;` entities) or `%%` (a comment to the
 * end of the line) is left to end or change it.
 */
function chartLabel(path: string): string {
  const clean = Array.from(
    path
      .replace(/[\r\n\t]+/g, ' ')
      .replace(/["`\\]/g, "'")
      .replace(/[<>#;]/g, '')
      .replace(/%{2,}/g, '%')
  )
  const short =
    clean.length > LABEL_LENGTH ? `${clean.slice(0, LABEL_LENGTH - 1).join('')}…` : clean.join('')
  return `"${short}"`
}

/**
 * The right end of the value axis: a round number at or above the largest bar, so the axis runs
 * from zero to a tick a reader can name.
 */
export function axisMax(largest: number): number {
  if (largest <= 0) return 1
  const magnitude = 10 ** Math.floor(Math.log10(largest))
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find(s => s * magnitude >= largest) ?? 10
  return Math.round(step * magnitude)
}

/**
 * Horizontal bars, one per page, in the table's order: each bar's length is the count the pages are
 * ranked by (by default the deduplicated total), from an axis that starts at zero. Human and AI are
 * not stacked: a visitor can be both, so they need not add up to the total.
 */
export function visitorsChart(top: readonly VisitorRow[], sortBy: SortKey): string[] {
  const charted = top.slice(0, CHART_PAGES)
  const values = charted.map(r => r[sortBy])
  return [
    '```mermaid',
    'xychart-beta horizontal',
    `  title "${CHART_TITLES[sortBy]}"`,
    `  x-axis [${charted.map(r => chartLabel(r.path)).join(', ')}]`,
    `  y-axis "${AXIS_LABELS[sortBy]}" 0 --> ${axisMax(Math.max(0, ...values))}`,
    `  bar [${values.join(', ')}]`,
    '```'
  ]
}

export function renderVisitorsSummary(report: VisitorsReport): string {
  const { totals, top } = report
  const lines = [
    // The dates were validated as dates: nothing in them needs escaping.
    `## Mintlify visitors: ${rangeText(report.dateFrom, report.dateTo)}`,
    '',
    '| | Unique visitors |',
    '|---|---:|',
    `| Human | ${formatCount(totals.human)} |`,
    `| AI | ${formatCount(totals.ai)} |`,
    `| Total (deduplicated, not the sum) | ${formatCount(totals.total)} |`,
    `| AI share | ${aiShare(totals)} |`,
    ''
  ]
  if (report.resume)
    lines.push(
      `> ⚠️ Not complete: the export stopped before the last row, after ${counted(report.rows, 'page')}. ${escapeMarkdown(report.resume)}`,
      ''
    )
  if (report.skipped)
    lines.push(
      `> ⚠️ Not complete: ${counted(report.skipped, 'row')} the service sent did not match its API document and ${report.skipped === 1 ? 'was' : 'were'} left out (first: ${escapeMarkdown(report.firstSkipped ?? '')}).`,
      ''
    )
  if (top.length === 0) {
    lines.push('No page had visitors in this range.', '')
  } else {
    const heading = top.length === 1 ? 'The top page' : `Top ${top.length} pages`
    lines.push(
      `### ${heading} by ${RANKED_BY[report.sortBy]} visitors`,
      '',
      ...visitorsChart(top, report.sortBy),
      '',
      '| # | Page | Total | Human | AI | AI share |',
      '|---:|---|---:|---:|---:|---:|',
      ...top.map(
        (r, i) =>
          `| ${i + 1} | ${codeSpan(r.path)} | ${formatCount(r.total)} | ${formatCount(r.human)} | ${formatCount(r.ai)} | ${aiShare(r)} |`
      ),
      '',
      'Total counts each visitor once. A visitor can be counted as both human and AI, so Human and AI need not add up to Total.',
      ''
    )
  }
  lines.push(
    `Exported ${counted(report.rows, 'page')}${report.offset ? ` from offset ${report.offset}` : ''} in ${counted(report.requests, 'request')} to ${codeSpan(report.file)}.`,
    ''
  )
  return lines.join('\n')
}
