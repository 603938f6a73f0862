import type { RangeQuery, ReadLimits } from '../mintlify/analytics-gaps.js'
import type { ApiClient } from '../mintlify/client.js'
import type { Signal } from './settings.js'

/**
 * The report the sub-action writes (as JSON or Markdown), summarises and turns into a prompt. Every
 * string in an entry is reader text, already cleaned (see reader-text.ts).
 */

/** A search term that was searched at least `min-hits` times and had no result clicked. */
export interface SearchGap {
  term: string
  hits: number
}

/** A page readers rated unhelpful, with a few of their comments. */
export interface PageGap {
  path: string
  thumbsDown: number
  thumbsUp: number
  comments: string[]
}

/** A question the assistant marked as not covered by the docs, asked `count` times. */
export interface QuestionGap {
  question: string
  count: number
  /** Up to three pages it was asked on. */
  pages: string[]
}

interface SectionBase {
  /** False when something was left unread; `unread` says what and why. */
  complete: boolean
  /**
   * True when the entries are the range's true top, also when `complete` is false because only a
   * tail that could not change them was left unread (search terms searched too rarely to enter).
   */
  topComplete: boolean
  unread: string | null
  /** Requests made for this signal, retries included. */
  requests: number
  /** Rows the service sent that did not match its API document, skipped. */
  skipped: number
}

export interface SearchesSection extends SectionBase {
  /** Distinct search terms with no result clicked. */
  gaps: number
  /** Search events in the range, as the service counts them. */
  totalSearches: number | null
  termsRead: number
  entries: SearchGap[]
}

export interface FeedbackSection extends SectionBase {
  /** Pages with at least one thumbs-down. */
  pages: number
  /** Feedback entries read for comments. */
  entriesRead: number
  entries: PageGap[]
}

export interface AssistantSection extends SectionBase {
  /** Distinct unanswered questions. */
  questions: number
  /** Assistant turns read, and how many of them were marked unanswered. */
  turnsRead: number
  unansweredTurns: number
  entries: QuestionGap[]
}

export interface Sections {
  searches: SearchesSection | null
  feedback: FeedbackSection | null
  assistant: AssistantSection | null
}

export interface GapsReport extends Sections {
  dateFrom: string | null
  /** Exclusive. */
  dateTo: string | null
  generatedAt: string
  complete: boolean
  /** Every section's top is final (see SectionBase.topComplete). */
  topComplete: boolean
  requests: number
  maxRequests: number
  minHits: number
  top: number
  /** With `changes-since`: the top gaps tied to the changes that likely caused them. */
  causes?: CausesSection
}

/** A tied gap as the `causes` output and the report give it. */
export interface Cause {
  gap: { kind: 'search' | 'page' | 'question'; text: string }
  /** The gap's count in the whole range. */
  count: number
  /** The change's page on GitHub. */
  change: string
  pr?: number
  sha?: string
  title: string
  terms: string[]
  /** Names the change removed (on its diff's removed lines, on no added one): pages may still say them. */
  removed: string[]
  /** When it merged (ISO 8601). */
  merged: string
  /** The UTC day the range is split at: `before` counts the days before it, `after` the rest. */
  splitAt: string
  /** Null when the split could not be measured (a notice says why): nothing is guessed. */
  before: number | null
  after: number | null
}

/** The report's part on changes: where they came from, what it cost, and each gap tied to one. */
export interface CausesSection {
  /** `changes-since` as given to the service's dates (YYYY-MM-DD or ISO 8601). */
  since: string
  source: 'ledger' | 'pull-requests' | null
  /** Changes read since `since`. */
  changes: number
  /** GitHub requests (retries aside) and the analytics requests that split counts at merges. */
  githubRequests: number
  splitRequests: number
  /** What was left out or failed, and why: nothing in `entries` is guessed. */
  notices: string[]
  entries: Cause[]
}

/** What a collector reads with, and how much it keeps. */
export interface ReadContext {
  client: ApiClient
  projectId: string
  range: RangeQuery
  limits: ReadLimits
  top: number
  minHits: number
  /** A warning for the log: a row skipped, a page repeated. */
  warn: (message: string) => void
  /** A line for the log: what reading did and why. */
  info: (message: string) => void
  /** Told when each unanswered question was asked (its group key), to split it at a merge. */
  asked?: (key: string, at: number) => void
}

/** Reads one signal one request at a time, so the request cap can be shared out fairly. */
export interface Collector {
  readonly signal: Signal
  /** True when it needs no more requests. */
  readonly done: boolean
  /** Makes exactly one request (retries aside) and takes in the answer. */
  step(): Promise<void>
  /** The section, with `unread` saying why reading stopped early (or null when it finished). */
  section(requests: number, unread: string | null): NonNullable<Sections[Signal]>
}

export interface GapCounts {
  searches: number
  feedback: number
  unanswered: number
  total: number
}

export function gapCounts(report: Sections): GapCounts {
  const searches = report.searches?.gaps ?? 0
  const feedback = report.feedback?.pages ?? 0
  const unanswered = report.assistant?.questions ?? 0
  return { searches, feedback, unanswered, total: searches + feedback + unanswered }
}

/** Sorts by count, highest first, then by text, so the order never depends on the page order. */
export function ranked<T>(
  items: Iterable<T>,
  count: (t: T) => number,
  text: (t: T) => string
): T[] {
  const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
  return [...items].sort((a, b) => count(b) - count(a) || order(text(a), text(b)))
}

export const renderJson = (report: GapsReport): string => `${JSON.stringify(report, null, 2)}\n`
