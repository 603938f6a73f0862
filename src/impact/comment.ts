import type { Operation } from '../docs-site/navigation.js'
import type { PageChange } from '../docs-site/site.js'
import { codeSpan, escapeMarkdown } from '../runner/markdown.js'
import { stripInvisible } from '../runner/untrusted.js'
import { IMPACT_MEASURES } from '../records/ledger.js'
import { TOO_FEW, direction, shown, tooFew, unsureLine } from '../agent/ledger/impact-table.js'
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
  pages: readonly PageChange[]
  terms: readonly string[]
  figures: { before: Figures; after: Figures }
  notes: readonly string[]
  /**
   * What the page mapping could not read or follow, or chose (docs-site/): plain text holding the
   * docs repository's paths, escaped here.
   */
  siteNotes?: readonly string[]
  /** OpenAPI operations whose spec it changed, and specs it changed that generate all of theirs. */
  operations?: readonly Operation[]
  wholeSpecs?: readonly string[]
}

const SHOWN_PAGES = 10
/** The mapping's notes shown at most, each cut at this many characters. */
const SHOWN_SITE_NOTES = 5
const SHOWN_NOTE = 400
/** A page path is shown up to this many characters: paths are the docs repository's text. */
const SHOWN_PATH = 200
/** GitHub refuses a comment body over 65,536 characters; the comment stays well under it. */
export const MAX_COMMENT_CHARS = 60_000

/**
 * A docs repository's path, for a code span outside a table: what a reader would not see (bidi
 * overrides that turn `…gnp.exe` into `exe.png`, controls) taken out, and cut at SHOWN_PATH.
 */
const shownPath = (path: string): string => {
  const clean = stripInvisible(path).replace(/\n/g, ' ')
  return codeSpan(clean.length > SHOWN_PATH ? `${clean.slice(0, SHOWN_PATH)}…` : clean, {
    inTable: false
  })
}

/** A page as the comment lists it: a renamed one with its old path, one that only moved said so. */
function pageText(page: PageChange): string {
  if (page.before === page.path) return shownPath(page.path)
  return `${shownPath(page.before)} → ${shownPath(page.path)}${page.moved ? ' (moved only)' : ''}`
}

/** The pages line, at most `shown` of them listed. */
function pagesLine(pages: readonly PageChange[], shown: number): string {
  if (!pages.length)
    return 'none: the pull request changed no docs page, so the page rows are left out'
  const listed = pages.slice(0, shown).map(pageText).join(', ')
  const more = pages.length > shown ? ` and ${pages.length - shown} more` : ''
  return `${listed}${more}`
}

/** The OpenAPI line: what of the spec changed is named but not measured. */
function operationsLine(c: ImpactComment): string[] {
  const ops = c.operations ?? []
  const specs = c.wholeSpecs ?? []
  if (!ops.length && !specs.length) return []
  const named = [
    ...ops.slice(0, SHOWN_PAGES).map(o => shownPath(o.name)),
    ...(ops.length > SHOWN_PAGES ? [`${ops.length - SHOWN_PAGES} more`] : []),
    ...specs.slice(0, 3).map(s => `every operation of ${shownPath(s)}`)
  ]
  return [
    `- **OpenAPI pages**: ${named.join(', ')}: generated from a spec this pull request changed that could not be read (a URL, not JSON or YAML, or over 10 MB), so they are not among the pages measured`
  ]
}

/**
 * The short comment when the pages cannot be told (no docs root, a site built from another
 * folder): that, in one line, and no figure.
 */
export function renderUnsureComment(c: { mergedAt: number; unsure: string }): string {
  return [
    '### Readers before and after this pull request merged',
    '',
    `Merged ${new Date(c.mergedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC. ${unsureLine(c.unsure)}`,
    '',
    IMPACT_MARKER
  ].join('\n')
}

/**
 * The comment on a docs pull request: the windows named, one row per measure with both figures
 * and the direction, small counts marked as such, and no word on what caused what.
 */
export function renderImpactComment(c: ImpactComment): string {
  // However long the paths, the comment stays under GitHub's limit: fewer pages listed, then none.
  for (const shown of [SHOWN_PAGES, 3, 0]) {
    const body = commentBody(c, shown)
    if (body.length <= MAX_COMMENT_CHARS) return body
  }
  return commentBody({ ...c, operations: [], wholeSpecs: [] }, 0)
}

function commentBody(c: ImpactComment, shownPages: number): string {
  const lines = [
    '### Readers before and after this pull request merged',
    '',
    `Merged ${new Date(c.mergedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC. Two windows of ${c.days} whole UTC days, the merge's own day in neither (the analytics count whole days): **before** ${range(c.before)}, **after** ${range(c.after)}.`,
    '',
    `- **Pages**: ${pagesLine(c.pages, shownPages)}`,
    ...operationsLine(c),
    `- **Terms**: ${c.terms.length ? c.terms.map(t => codeSpan(t, { inTable: false })).join(', ') : 'none recorded for it, so the search and question rows are left out'}`,
    '',
    '| Measure | Before | After | Direction |',
    '|---|---:|---:|---|',
    ...rows(c.figures, c.pages.length > 0, c.terms.length > 0).map(
      r => `| ${r.label} | ${r.before} | ${r.after} | ${r.direction} |`
    ),
    '',
    ...c.notes.map(n => `- ${n}`),
    ...siteNotes(c.siteNotes ?? []),
    ...(c.notes.length || c.siteNotes?.length ? [''] : []),
    `Counts are the service's analytics for the two windows; a row under ${TOO_FEW} in both says too few to tell. Other changes, the season and search engines move these figures too: a direction is not a cause.`,
    '',
    IMPACT_MARKER
  ]
  return lines.join('\n')
}

/** The mapping's notes as list items: escaped, invisible characters out, a few, each cut. */
function siteNotes(notes: readonly string[]): string[] {
  const shown = notes.slice(0, SHOWN_SITE_NOTES).map(n => {
    const clean = stripInvisible(n).replace(/\s+/g, ' ')
    return `- ${escapeMarkdown(clean.length > SHOWN_NOTE ? `${clean.slice(0, SHOWN_NOTE)}…` : clean)}`
  })
  const more = notes.length - shown.length
  return more > 0 ? [...shown, `- ${more} more notes on how the pages were mapped.`] : shown
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
