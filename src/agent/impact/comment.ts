import { codeSpan } from '../../runner/markdown.js'
import { IMPACT_MEASURES } from '../../records/ledger.js'
import { TOO_FEW, direction, shown, tooFew } from '../ledger/impact-table.js'
import type { Figures } from './measure.js'
import { type DayRange, lastDay } from './windows.js'

/** Finds the action's impact comment among a pull request's comments. */
export const IMPACT_MARKER = '<!-- mintlify-agent-reader-impact -->'

const LABELS: Record<(typeof IMPACT_MEASURES)[number], string> = {
  humanViews: 'Human page views',
  humanVisitors: 'Human visitors (per page, summed)',
  aiVisitors: 'AI visitors (per page, summed)',
  thumbsDown: 'Thumbs-down',
  zeroClickSearches: 'Searches for its terms with no result clicked',
  unansweredQuestions: 'Unanswered assistant questions on its terms or pages'
}

export interface ImpactComment {
  mergedAt: number
  days: number
  before: DayRange
  after: DayRange
  pages: readonly string[]
  terms: readonly string[]
  figures: { before: Figures; after: Figures }
  notes: readonly string[]
}

const SHOWN_PAGES = 10

/**
 * The comment on a docs pull request: the windows named, one row per measure with both figures
 * and the direction, small counts marked as such, and no word on what caused what.
 */
export function renderImpactComment(c: ImpactComment): string {
  const shownPages = c.pages.slice(0, SHOWN_PAGES).map(codeSpan).join(', ')
  const morePages = c.pages.length > SHOWN_PAGES ? ` and ${c.pages.length - SHOWN_PAGES} more` : ''
  const lines = [
    '### Readers before and after this pull request merged',
    '',
    `Merged ${new Date(c.mergedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC. Two windows of ${c.days} whole UTC days, the merge's own day in neither (the analytics count whole days): **before** ${range(c.before)}, **after** ${range(c.after)}.`,
    '',
    `- **Pages**: ${c.pages.length ? `${shownPages}${morePages}` : 'none: the pull request changed no docs page, so the page rows are left out'}`,
    `- **Terms**: ${c.terms.length ? c.terms.map(codeSpan).join(', ') : 'none recorded for it, so the search and question rows are left out'}`,
    '',
    '| Measure | Before | After | Direction |',
    '|---|---:|---:|---|',
    ...rows(c.figures, c.pages.length > 0, c.terms.length > 0).map(
      r => `| ${r.label} | ${r.before} | ${r.after} | ${r.direction} |`
    ),
    '',
    ...c.notes.map(n => `- ${n}`),
    ...(c.notes.length ? [''] : []),
    `Counts are the service's analytics for the two windows; a row under ${TOO_FEW} in both says too few to tell. Other changes, the season and search engines move these figures too: a direction is not a cause.`,
    '',
    IMPACT_MARKER
  ]
  return lines.join('\n')
}

interface Row {
  label: string
  before: string
  after: string
  direction: string
}

function rows(figures: { before: Figures; after: Figures }, pages: boolean, terms: boolean): Row[] {
  const value = (f: Figures, name: (typeof IMPACT_MEASURES)[number]) =>
    f[IMPACT_MEASURES.indexOf(name)] ?? null
  const out: Row[] = []
  for (const name of IMPACT_MEASURES) {
    const isPage = name !== 'zeroClickSearches' && name !== 'unansweredQuestions'
    if ((isPage && !pages) || (!isPage && !terms)) continue
    const b = value(figures.before, name)
    const a = value(figures.after, name)
    out.push({ label: LABELS[name], before: shown(b), after: shown(a), direction: direction(b, a) })
    if (name === 'thumbsDown') {
      const views = [value(figures.before, 'humanViews'), value(figures.after, 'humanViews')]
      const rate = (down: number | null, v: number | null): number | null =>
        down === null || !v ? null : Math.round((down / v) * 1000) / 10
      const [rb, ra] = [rate(b, views[0] ?? null), rate(a, views[1] ?? null)]
      out.push({
        label: 'Thumbs-down per 100 human views',
        before: rb === null ? 'not known' : rb.toFixed(1),
        after: ra === null ? 'not known' : ra.toFixed(1),
        // The rate is as small as its thumbs-down: too few of them tell nothing.
        direction: direction(rb, ra, tooFew(b, a))
      })
    }
  }
  return out
}

const range = (r: DayRange): string => `${r.from} to ${lastDay(r)}`
