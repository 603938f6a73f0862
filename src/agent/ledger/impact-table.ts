import { escapeMarkdown, markdownLink } from '../../runner/markdown.js'
import { formatCount } from '../../runner/text.js'
import { stripInvisible } from '../../runner/untrusted.js'
import { IMPACT_MEASURES, type ReaderImpact } from '../../records/ledger.js'

// How the ledger's reader-impact figures read (before → after, the direction, too few to tell),
// on the dashboard and in the impact comment alike (impact/comment.ts).

/** Under this in both windows, a difference says nothing. */
export const TOO_FEW = 10

export const shown = (n: number | null): string => (n === null ? 'not known' : formatCount(n))

/** Both windows' counts are under TOO_FEW: a difference says nothing. */
export const tooFew = (b: number | null, a: number | null): boolean =>
  b !== null && a !== null && b < TOO_FEW && a < TOO_FEW

/**
 * ↑, ↓ or → with the difference; `too few to tell` when the counts behind it are few (by default,
 * under TOO_FEW in both windows; a rate is as few as the counts it divides).
 */
export function direction(
  b: number | null,
  a: number | null,
  few = b !== null && a !== null && tooFew(b, a)
): string {
  if (b === null || a === null) return 'not known'
  if (few) return 'too few to tell'
  if (a === b) return '→ same'
  const diff = Math.round((a - b) * 10) / 10
  const sign = diff > 0 ? '+' : '−'
  const pct = b > 0 ? ` (${sign}${Math.abs(Math.round((diff / b) * 100))}%)` : ''
  return `${a > b ? '↑' : '↓'} ${sign}${formatCount(Math.abs(diff))}${pct}`
}

/** The one line said when the pages cannot be told, in the comment and on the dashboard. */
export const unsureLine = (unsure: string): string =>
  `Not measured: ${escapeMarkdown(stripInvisible(unsure).slice(0, 300))}, so which site pages its files are cannot be told; no analytics request was spent on it.`

/** The one line said of a docs pull request that changed no site page, on the dashboard. */
export const NO_PAGES_LINE =
  'Not measured: it changed no site page; no analytics request was spent on it.'

/** A dashboard cell: `120 → 180 ↑`, or `3 → 1 (too few)`. */
export function impactCell(impact: ReaderImpact, name: (typeof IMPACT_MEASURES)[number]): string {
  const i = IMPACT_MEASURES.indexOf(name)
  const b = impact.before[i] ?? null
  const a = impact.after[i] ?? null
  if (b === null && a === null) return '–'
  const dir = direction(b, a)
  const arrow =
    dir === 'too few to tell' ? ' (too few)' : dir === 'not known' ? '' : ` ${dir.split(' ')[0]}`
  return `${shown(b)} → ${shown(a)}${arrow}`
}

/** The dashboard's "Reader impact" rows: one per measured docs pull request, the latest first. */
export function renderImpactTable(
  jobs: readonly { prLink?: string; impact?: ReaderImpact }[],
  label: (link: string) => string
): string[] {
  const measured = jobs.filter(j => j.prLink && j.impact).reverse()
  if (!measured.length) return []
  return [
    '#### Reader impact of merged docs pull requests',
    '',
    `Equal windows before and after each merge (whole UTC days, the merge's day in neither); figures before → after; under ${TOO_FEW} in both is too few to tell.`,
    '',
    '| Docs pull request | Windows | Human views | Human visitors | Thumbs-down | Searches with no click | Unanswered questions |',
    '|---|---|---|---|---|---|---|',
    ...measured.map(j => {
      const impact = j.impact as ReaderImpact
      const link = markdownLink(label(j.prLink as string), j.prLink)
      const comment = impact.commentUrl ? ` (${markdownLink('comment', impact.commentUrl)})` : ''
      if (impact.unsure)
        return `| ${link}${comment} | ${unsureLine(impact.unsure)} | – | – | – | – | – |`
      if (impact.noPages) return `| ${link}${comment} | ${NO_PAGES_LINE} | – | – | – | – | – |`
      return `| ${link}${comment} | ${impact.days} days each | ${impactCell(impact, 'humanViews')} | ${impactCell(impact, 'humanVisitors')} | ${impactCell(impact, 'thumbsDown')} | ${impactCell(impact, 'zeroClickSearches')} | ${impactCell(impact, 'unansweredQuestions')} |`
    }),
    ''
  ]
}
