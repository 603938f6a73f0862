import { codeSpan, escapeMarkdown } from '../runner/markdown.js'
import { rangeText } from '../runner/dates.js'
import { counted, formatCount as number, plural } from '../runner/text.js'
import { causesMarkdown } from './causes-text.js'
import { type GapsReport, type Sections, gapCounts } from './report.js'

/** How much of the report a rendering shows: the job summary is short, the .md report is whole. */
export interface MarkdownOptions {
  /** Entries per table. */
  rows: number
  /** Comments per page, and the length each is cut to. */
  comments: number
  commentLength: number
  /** The report file, named at the end. */
  file: string
}

export const SUMMARY_OPTIONS = { rows: 10, comments: 2, commentLength: 200 }
export const FULL_OPTIONS = { rows: Number.MAX_SAFE_INTEGER, comments: 3, commentLength: 500 }

const LABELS: Record<keyof Sections, string> = {
  searches: 'Search terms',
  feedback: 'Feedback',
  assistant: 'Assistant questions'
}

/** Reader text in Markdown: a code span, so no mention pings, no link links and no HTML renders. */
const reader = (text: string, max = Number.MAX_SAFE_INTEGER): string => {
  const chars = Array.from(text)
  return codeSpan(chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text)
}

/** The job summary and the .md report: three tables of gaps and what was read to find them. */
export function renderGapsMarkdown(report: GapsReport, options: MarkdownOptions): string {
  const counts = gapCounts(report)
  // The dates were validated as dates: nothing in them needs escaping.
  const lines = [`## Mintlify docs gaps: ${rangeText(report.dateFrom, report.dateTo)}`, '']
  const found: string[] = []
  const bold = (n: number, word: string): string => `**${number(n)}** ${plural(n, word)}`
  if (report.searches) found.push(`${bold(counts.searches, 'search term')} with no click`)
  if (report.feedback) found.push(`${bold(counts.feedback, 'page')} with thumbs-down`)
  if (report.assistant) found.push(`${bold(counts.unanswered, 'unanswered question')}`)
  lines.push(
    `${found.join(' · ')}. Terms, comments, questions and paths are reader text, shown as code.`,
    ''
  )
  for (const key of ['searches', 'feedback', 'assistant'] as const) {
    const section = report[key]
    if (section && !section.complete && section.unread) {
      // Only a tail that could not change the top was left: a note, not a warning.
      const mark = section.topComplete ? `ℹ️ ${LABELS[key]}, the top is final` : `⚠️ ${LABELS[key]}`
      lines.push(`> ${mark}: ${escapeMarkdown(section.unread)}.`, '')
    }
  }
  if (report.searches)
    lines.push(
      ...table(
        `Search terms with no result clicked (searched ${report.minHits}+ times)`,
        ['| # | Search term | Searches |', '|---:|---|---:|'],
        report.searches.entries
          .slice(0, options.rows)
          .map((e, i) => `| ${i + 1} | ${reader(e.term)} | ${number(e.hits)} |`)
      )
    )
  if (report.feedback)
    lines.push(
      ...table(
        'Pages with the most thumbs-down',
        ['| # | Page | 👎 | 👍 | What readers said |', '|---:|---|---:|---:|---|'],
        report.feedback.entries.slice(0, options.rows).map((e, i) => {
          const said = e.comments
            .slice(0, options.comments)
            .map(c => reader(c, options.commentLength))
          return `| ${i + 1} | ${reader(e.path)} | ${number(e.thumbsDown)} | ${number(e.thumbsUp)} | ${said.join('<br>')} |`
        })
      )
    )
  if (report.assistant)
    lines.push(
      ...table(
        'Questions the assistant could not answer',
        ['| # | Question | Asked | Asked on |', '|---:|---|---:|---|'],
        report.assistant.entries
          .slice(0, options.rows)
          .map(
            (e, i) =>
              `| ${i + 1} | ${reader(e.question)} | ${number(e.count)} | ${e.pages.map(p => reader(p)).join(' ')} |`
          )
      )
    )
  if (report.causes) lines.push(...causesMarkdown(report.causes, options.rows))
  const state = report.complete
    ? 'everything in range'
    : report.topComplete
      ? 'enough to rank the top of every signal, not every row: see the notes above'
      : 'not everything: see the warnings above'
  lines.push(
    `Read ${state}, in ${counted(report.requests, 'request')} (at most ${number(report.maxRequests)}). Report: ${codeSpan(options.file)}.`,
    ''
  )
  return lines.join('\n')
}

/** One signal's section: its heading, then its table, or a line saying there is nothing. */
function table(title: string, head: string[], rows: string[]): string[] {
  return [`### ${title}`, '', ...(rows.length ? [...head, ...rows] : ['None in this range.']), '']
}
