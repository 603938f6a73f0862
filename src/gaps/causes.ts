import { type DocsSite, pageOf } from '../docs-site/site.js'
import { samePage } from '../docs-site/routing.js'
import type { ChangeDetails } from '../github/changes.js'
import { groupKey } from './reader-text.js'
import type { Sections } from './report.js'
import { distinctiveTerms, mentions, namesPageFile, pageTerms } from '../runner/terms.js'

/** A top gap, as the report lists it: its kind, its (cleaned) text and its count in the range. */
export interface Gap {
  kind: 'search' | 'page' | 'question'
  text: string
  /** Searches with no click, thumbs-down, or times asked. */
  count: number
}

/** A change with the text it is matched on: its details and a bounded excerpt of its diff. */
export interface ChangeText extends ChangeDetails {
  /** Added and removed lines of its patches, capped; '' when not read. */
  diff: string
}

/** A gap tied to the change that most likely caused it. */
export interface Tie {
  gap: Gap
  change: ChangeText
  /** The gap's distinctive terms the change carries. */
  terms: string[]
}

/** A change ties only when it merged inside the analytics range: `from` (or open) to `to` (exclusive). */
export interface MergeWindow {
  from?: number
  to: number
}

/** The report's top gaps, in the report's order: searches, pages, questions. */
export function topGaps(report: Sections): Gap[] {
  return [
    ...(report.searches?.entries ?? []).map(e => ({
      kind: 'search' as const,
      text: e.term,
      count: e.hits
    })),
    ...(report.feedback?.entries ?? []).map(e => ({
      kind: 'page' as const,
      text: e.path,
      count: e.thumbsDown
    })),
    ...(report.assistant?.entries ?? []).map(e => ({
      kind: 'question' as const,
      text: e.question,
      count: e.count
    }))
  ]
}

/** A page gap's path longer than this is no page: hostile, or broken. */
const MAX_PAGE_PATH = 1_000

/** Whether any gap has something a change could carry: otherwise GitHub need not be read. */
export const anyTieable = (gaps: readonly Gap[]): boolean =>
  gaps.some(g => (g.kind === 'page' ? isPagePath(g.text) : distinctiveTerms(g.text).length > 0))

/** A page gap's text that can be a site path (the `/` page too). */
const isPagePath = (text: string): boolean => text.trim().length > 0 && text.length <= MAX_PAGE_PATH

/**
 * Each gap with the change merged inside the window that carries the most of its distinctive terms
 * (in its title, description, file paths or diff excerpt); on a tie between changes, the earliest
 * merged, since a gap that begins with a change began with the first one. A page gap ties when the
 * change names its path, when one of its files is the page as the docs site `site` serves it (the
 * changes' repository's docs, docs-site/: `es/x.mdx` is `/es/x`, never `/x`), or when a code file
 * is named after the page. Gaps with no term, and changes merged outside the window, never tie.
 */
export function tieGaps(
  gaps: readonly Gap[],
  changes: readonly ChangeText[],
  window: MergeWindow,
  site?: DocsSite,
  rendered?: ReadonlyMap<ChangeText, readonly string[]>
): Tie[] {
  const inside = changes
    .filter(c => (window.from === undefined || c.mergedAt >= window.from) && c.mergedAt < window.to)
    .sort((a, b) => a.mergedAt - b.mergedAt || (a.pr ?? 0) - (b.pr ?? 0))
  const ties: Tie[] = []
  for (const gap of gaps) {
    let best: Tie | undefined
    for (const change of inside) {
      const terms = matchedTerms(gap, change, site, rendered?.get(change))
      if (terms.length > (best?.terms.length ?? 0)) best = { gap, change, terms }
    }
    if (best) ties.push(best)
  }
  return ties
}

function matchedTerms(
  gap: Gap,
  change: ChangeText,
  site: DocsSite | undefined,
  rendered: readonly string[] = []
): string[] {
  if (gap.kind === 'page') return servesPage(gap.text, change, site, rendered) ? [gap.text] : []
  // File paths also without their extension: `flags_file` names `src/flags_file.ts`.
  const files = change.files.flatMap(f => [f, f.replace(/\.[A-Za-z0-9]+$/, '')]).join('\n')
  const texts = [change.title, change.body, files, change.diff]
  return distinctiveTerms(gap.text).filter(term => texts.some(t => mentions(t, term)))
}

const MARKDOWN = /\.mdx?$/i

/**
 * Whether a change is about the page at `path`: its text names the path, one of its Markdown files
 * is the page (by the site's routing, never by name: a translation is another page), a spec it
 * changed renders the page (`rendered`, docs-site/site-pages.ts), or a code file is named after it.
 */
function servesPage(
  path: string,
  change: ChangeText,
  site: DocsSite | undefined,
  rendered: readonly string[]
): boolean {
  if (!isPagePath(path)) return false
  const page = pageTerms(path)
  if (page.paths.some(p => [change.title, change.body, change.diff].some(t => mentions(t, p))))
    return true
  const wanted = samePage(path.replace(/[?#].*$/s, ''))
  if (rendered.some(p => samePage(p) === wanted)) return true
  const markdown = change.files.filter(f => MARKDOWN.test(f))
  if (site && markdown.some(f => samePage(pageOf(site, f) ?? '\0') === wanted)) return true
  const code = change.files.filter(f => !MARKDOWN.test(f))
  return page.paths.length > 0 && namesPageFile(code, page)
}

/** A gap's key when its rows are read again (a split range): as the collectors group them. */
export const gapKey = (gap: Gap): string => (gap.kind === 'page' ? gap.text : groupKey(gap.text))
