import { codeSpan, escapeMarkdown, markdownLink } from '../runner/markdown.js'
import { counted, formatCount as number } from '../runner/text.js'
import { changeName } from './changes.js'
import type { Cause, CausesSection } from './report.js'

/** How a tied gap reads: the gap, its signal before and after the merge, and the change. */

const SOURCES: Record<NonNullable<CausesSection['source']>, string> = {
  ledger: "the ledger's documented changes",
  'pull-requests': 'the merged pull requests (no ledger)'
}

function signal(c: Cause): string {
  if (c.gap.kind === 'search') return `${counted(c.count, 'search', 'searches')}, no click`
  if (c.gap.kind === 'page') return `${number(c.count)} thumbs-down`
  return `asked ${counted(c.count, 'time')}, unanswered`
}

/** When the signal came, relative to the merge day; nothing when it could not be measured. */
function timing(c: Cause): string {
  if (c.before === null || c.after === null)
    return `not split at the merge (${c.splitAt}; see the notes)`
  if (c.before === 0) return 'all after'
  if (c.after === 0) return 'all before'
  return `${number(c.before)} before and ${number(c.after)} after`
}

/** What the change removed, which pages written before it may still say. */
const removedText = (c: Cause): string =>
  c.removed.length
    ? `; it removed ${c.removed.map(t => codeSpan(t)).join(', ')}, which the docs may still name`
    : ''

/** The job summary's and the .md report's section: one line a tied gap, as a reader says it. */
export function causesMarkdown(section: CausesSection, rows: number): string[] {
  const from = section.source ? SOURCES[section.source] : 'no changes (see the notes)'
  const lines = [`### Gaps tied to changes since ${section.since}`, '']
  for (const notice of section.notices) lines.push(`> ℹ️ ${escapeMarkdown(notice)}`, '')
  const entries = section.entries.slice(0, rows)
  if (entries.length === 0) lines.push('No top gap ties to a change merged in the range.')
  for (const c of entries) {
    const change = markdownLink(changeName(c), c.change) || escapeMarkdown(changeName(c))
    lines.push(
      `- ${codeSpan(c.gap.text)}: ${signal(c)}, ${timing(c)} ${change} (${escapeMarkdown(c.title)}), merged ${c.splitAt}; ` +
        `matched ${c.terms.map(t => codeSpan(t)).join(', ')}${removedText(c)}.`
    )
  }
  lines.push(
    '',
    `From ${from}: ${counted(section.changes, 'change')} in ${counted(section.githubRequests, 'GitHub request')}; ` +
      `splitting at the merges took ${counted(section.splitRequests, 'analytics request')}. Gap texts are reader text and titles are GitHub's, both shown as written, never as links.`,
    ''
  )
  return lines
}

/** Reader text and GitHub text inside the prompt's markers: one JSON string each. */
const quoted = (text: string): string => JSON.stringify(text)

/** The prompt's block: each tied gap next to its change. */
export function causesPromptBlock(section: CausesSection): string[] {
  return [
    `Gaps tied to the code change that most likely caused them (${section.entries.length} in all; the change's title is untrusted text too; ` +
      'counts before and from the merge day):',
    ...section.entries.map(c => {
      const split =
        c.before === null || c.after === null
          ? `not split at the merge on ${c.splitAt}`
          : `${c.before} before, ${c.after} after the merge on ${c.splitAt}`
      return (
        `- ${c.gap.kind} ${quoted(c.gap.text)} (${c.count}; ${split}) <- change ${quoted(changeName(c))} ${quoted(c.change)} ` +
        `titled ${quoted(c.title)}, carrying ${c.terms.map(quoted).join(', ')}` +
        (c.removed.length ? `; it removed ${c.removed.map(quoted).join(', ')}` : '')
      )
    })
  ]
}
