import type { GapsData } from '../simulator/analytics-data.js'

/**
 * What the docs-gaps report should hold for a data set, worked out here from the rows themselves
 * (plain data, no reader junk), independently of the action's code.
 */

const key = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[\s?!.,;:]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
const byCount =
  <T>(count: (t: T) => number, text: (t: T) => string) =>
  (a: T, b: T) =>
    count(b) - count(a) || (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0)

export function expectedSearches(data: GapsData, minHits: number, top = 10) {
  const gaps = data.searches.filter(
    s => s.hits >= minHits && (s.ctr === 0 || s.topClickedPage === null)
  )
  const entries = gaps
    .map(s => ({ term: s.searchQuery, hits: s.hits }))
    .sort(
      byCount(
        e => e.hits,
        e => e.term
      )
    )
  return { gaps: new Set(gaps.map(s => key(s.searchQuery))).size, entries: entries.slice(0, top) }
}

/** Pages by thumbs-down; comments from the newest open unhelpful entries, at most `commentRows` read. */
export function expectedFeedback(data: GapsData, top = 10, commentRows = 500) {
  const counts = new Map<string, { up: number; down: number }>()
  for (const f of data.feedback) {
    if (f.source !== 'contextual') continue
    const c = counts.get(f.path) ?? { up: 0, down: 0 }
    if (f.helpful) c.up++
    else c.down++
    counts.set(f.path, c)
  }
  const pages = [...counts]
    .filter(([, c]) => c.down > 0)
    .map(([path, c]) => ({ path, thumbsDown: c.down, thumbsUp: c.up, comments: [] as string[] }))
    .sort(
      byCount(
        p => p.thumbsDown,
        p => p.path
      )
    )
  const wanted = new Map(pages.slice(0, top).map(p => [p.path, p]))
  const open = data.feedback
    .filter(f => f.source === 'contextual' && ['pending', 'in_progress'].includes(f.status))
    .sort(
      (a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.id.localeCompare(b.id)
    )
    .slice(0, commentRows)
  for (const f of open) {
    const page = wanted.get(f.path)
    if (f.source !== 'contextual' || f.helpful || !f.comment || !page) continue
    if (page.comments.length < 3 && !page.comments.includes(f.comment))
      page.comments.push(f.comment)
  }
  return { pages: pages.length, entries: pages.slice(0, top) }
}

export function expectedQuestions(data: GapsData, top = 10) {
  const groups = new Map<string, { spellings: Map<string, number>; count: number }>()
  const newestFirst = [...data.conversations].sort((a, b) => (a.id < b.id ? 1 : -1))
  for (const c of newestFirst) {
    if (c.resolutionStatus !== 'unanswered') continue
    const text = c.query.replace(/\s+/g, ' ').trim()
    const group = groups.get(key(text)) ?? { spellings: new Map(), count: 0 }
    group.count++
    group.spellings.set(text, (group.spellings.get(text) ?? 0) + 1)
    groups.set(key(text), group)
  }
  const entries = [...groups.values()]
    .map(g => {
      let [question, most] = ['', 0]
      for (const [text, n] of g.spellings) if (n > most) [question, most] = [text, n]
      return { question, count: g.count }
    })
    .sort(
      byCount(
        e => e.count,
        e => e.question
      )
    )
  return { questions: groups.size, entries: entries.slice(0, top) }
}
