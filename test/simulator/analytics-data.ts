/** Rows of the docs-gaps operations, in the shapes of the analytics document, and a realistic site. */

export interface SearchRow {
  searchQuery: string
  hits: number
  ctr: number
  topClickedPage: string | null
  lastSearchedAt: string
}

interface FeedbackBase {
  id: string
  path: string
  comment: string | null
  createdAt: string | null
  status: 'pending' | 'in_progress' | 'resolved' | 'dismissed'
}
export type FeedbackRow =
  | (FeedbackBase & { source: 'contextual'; helpful: boolean; contact: string | null })
  | (FeedbackBase & {
      source: 'code_snippet'
      code: string
      filename: string | null
      lang: string | null
    })
  | (FeedbackBase & { source: 'agent' | 'thumbs_only' })

export interface ConversationRow {
  /** A ULID: time-ordered, so newest first is highest first. */
  id: string
  timestamp: string
  query: string
  response: string
  responseType?: 'answer' | 'clarifying_question'
  sources: { title: string; url: string }[]
  resolutionStatus: 'answered' | 'unanswered'
  queryCategory: string | null
  pageUrl: string | null
}

export interface GapsData {
  /** Any order: served by hits, highest first. */
  searches: SearchRow[]
  /** Any order: served newest first. */
  feedback: FeedbackRow[]
  /** Any order: served newest (highest id) first. */
  conversations: ConversationRow[]
}

export const PAGES = [
  '/quickstart',
  '/installation',
  '/api-reference/authentication',
  '/api-reference/rate-limits',
  '/api-reference/pagination',
  '/guides/webhooks',
  '/guides/sso',
  '/guides/custom-domains',
  '/sdks/python',
  '/sdks/node',
  '/sdks/go',
  '/concepts/projects',
  '/concepts/environments',
  '/billing/plans',
  '/changelog',
  '/migration/v2',
  '/cli/commands',
  '/integrations/slack',
  '/integrations/github',
  '/troubleshooting/errors'
]

const TOPICS = [
  'rate limit',
  'webhook signature',
  'saml sso',
  'api key rotation',
  'pagination cursor',
  'python sdk',
  'retry policy',
  'oauth scopes',
  'delete project',
  'export csv',
  'custom domain ssl',
  'dark mode',
  'websocket',
  'graphql',
  'terraform provider',
  'audit log',
  'ip allowlist',
  'error 429',
  'invoice',
  'invite teammates',
  'self hosted',
  'migrate v1 to v2',
  'node 22',
  'environment variables',
  'staging environment',
  'cli login',
  'slack notifications',
  'github app permissions',
  'request timeout',
  'batch requests'
]
const FORMS = ['%', '% example', 'how to %', '% python', '% not working', '% limits', 'configure %']

const COMMENTS = [
  'The example still uses the v1 endpoint, which now returns 410.',
  'Which region does this default to? Nothing here says.',
  'Missing a full example with imports.',
  'The curl command fails: the header name is wrong.',
  'Explain what happens when the token expires.',
  'Screenshots are outdated, the settings page moved.',
  'Does this work with the Go SDK too?',
  'Too long, I only needed the list of scopes.',
  'The table of limits does not match what the API returns.',
  'Please document the retry headers.'
]

const ANSWERED = [
  'How do I create an API key?',
  'What is the default page size?',
  'How do I install the Python SDK?',
  'Where do I find my project ID?',
  'How do I verify a webhook signature?',
  'Which regions are available?'
]
export const UNANSWERED = [
  'Does the API support bulk deletes?',
  'How do I rotate a webhook secret without downtime?',
  'Is there a Terraform provider?',
  'Can I self-host the dashboard?',
  'What are the rate limits for the search endpoint?',
  'How do I migrate SAML settings between projects?',
  'Is there an SLA for the EU region?'
]
const QUESTIONS = [...ANSWERED, ...UNANSWERED]

const BASE_TIME = Date.UTC(2026, 10, 20, 12)
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A ULID for `time`, its random part derived from `seed` so the data is the same on every run. */
export function ulid(time: number, seed: number): string {
  let out = ''
  let t = time
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out
    t = Math.floor(t / 32)
  }
  let x = (seed * 2_654_435_761) >>> 0
  for (let i = 0; i < 16; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0
    out += CROCKFORD[x >>> 27]
  }
  return out
}

/** Hits fall off like real search traffic: a few terms searched hundreds of times, a long tail. */
export const generatedHits = (i: number): number => Math.floor(600 / (i + 1)) + 1

export function generatedSearch(i: number): SearchRow {
  const topic = TOPICS[i % TOPICS.length] as string
  const form = FORMS[Math.floor(i / TOPICS.length) % FORMS.length] as string
  const round = Math.floor(i / (TOPICS.length * FORMS.length))
  const noClick = i % 3 === 1
  const noTopPage = i % 13 === 6
  return {
    searchQuery: form.replace('%', topic) + (round ? ` ${round + 1}` : ''),
    hits: generatedHits(i),
    ctr: noClick ? 0 : Math.round((0.1 + (i % 9) / 10) * 100) / 100,
    topClickedPage: noClick || noTopPage ? null : (PAGES[i % PAGES.length] as string),
    lastSearchedAt: new Date(BASE_TIME - i * 3_600_000).toISOString()
  }
}

/** Most pages are mostly fine; a few draw most of the thumbs-down. */
const TROUBLED = new Set([2, 5, 9])

export function generatedFeedback(i: number): FeedbackRow {
  // Busy pages get more feedback: the golden ratio spreads the rows, the square skews them.
  const page = i % 7 === 0 ? 2 : Math.floor(PAGES.length * ((i * 0.618_034) % 1) ** 2)
  const base: FeedbackBase = {
    id: `fb_${String(i).padStart(6, '0')}`,
    path: PAGES[page] as string,
    comment: i % 4 === 0 ? null : (COMMENTS[i % COMMENTS.length] as string),
    createdAt: new Date(BASE_TIME - i * 300_000).toISOString(),
    status:
      i % 11 === 3
        ? 'resolved'
        : i % 17 === 5
          ? 'dismissed'
          : i % 13 === 7
            ? 'in_progress'
            : 'pending'
  }
  if (i % 10 === 8) {
    return {
      ...base,
      source: 'code_snippet',
      code: 'client.keys.rotate()',
      filename: null,
      lang: 'js'
    }
  }
  if (i % 10 === 9) return { ...base, comment: null, source: 'thumbs_only' }
  return {
    ...base,
    source: 'contextual',
    helpful: TROUBLED.has(page) ? i % 3 === 1 : i % 5 !== 0,
    contact: i % 5 === 0 ? `reader${i}@example.com` : null
  }
}

/** How a reader typed a question: as written, in lower case without the mark, or with stray spaces. */
function variant(question: string, i: number): string {
  if (i % 3 === 1) return question.toLowerCase().replace(/\?$/, '')
  if (i % 3 === 2) return `  ${question.replace(/ /g, '  ')} `
  return question
}

export function generatedConversation(i: number): ConversationRow {
  const question = QUESTIONS[(i * 7) % QUESTIONS.length] as string
  const unanswered = UNANSWERED.includes(question) && i % 9 !== 4
  const page = PAGES[i % PAGES.length] as string
  const time = BASE_TIME - i * 60_000
  return {
    id: ulid(time, i),
    timestamp: new Date(time).toISOString(),
    query: variant(question, i),
    response: unanswered
      ? `ASSISTANT-REPLY-${i}: I could not find this in the documentation.`
      : `ASSISTANT-REPLY-${i}: See the page on this topic.`,
    ...(i % 5 === 0 ? {} : { responseType: 'answer' as const }),
    sources: unanswered ? [] : [{ title: 'Reference', url: `https://docs.example.com${page}` }],
    resolutionStatus: unanswered ? 'unanswered' : 'answered',
    queryCategory: i % 2 ? 'api' : null,
    pageUrl: i % 4 === 0 ? null : `https://docs.example.com${page}?ref=nav`
  }
}

export interface GapsDataSize {
  searches?: number
  feedback?: number
  conversations?: number
}

/** A site's week: enough rows for several pages of every operation at the largest page sizes. */
export function generateGapsData(size: GapsDataSize = {}): GapsData {
  const rows = <T>(n: number, row: (i: number) => T): T[] =>
    Array.from({ length: n }, (_, i) => row(i))
  return {
    searches: rows(size.searches ?? 260, generatedSearch),
    feedback: rows(size.feedback ?? 400, generatedFeedback),
    conversations: rows(size.conversations ?? 1200, generatedConversation)
  }
}

/** The size the issue names for a big site: search events over terms, feedback entries, turns. */
export const BIG_SITE = {
  searchEvents: 100_000,
  searchTerms: 20_000,
  feedback: 10_000,
  conversations: 10_000
} as const

/**
 * Hits that fall off as 1/rank over `terms` terms and add up to exactly `events`: every term searched
 * at least once, a few hundreds or thousands of times, highest first (as the service orders them).
 */
export function zipfHits(terms: number, events: number): number[] {
  const hitsWith = (scale: number): number[] =>
    Array.from({ length: terms }, (_, i) => 1 + Math.floor(scale / (i + 1)))
  const sum = (hits: number[]): number => hits.reduce((a, b) => a + b, 0)
  let [low, high] = [0, events]
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (sum(hitsWith(mid)) <= events) low = mid
    else high = mid - 1
  }
  const hits = hitsWith(low)
  // What rounding left over goes to the most searched terms, one each: the order stays as it was.
  for (let i = 0, left = events - sum(hits); left > 0; i++, left--) hits[i]! += 1
  return hits
}

/** Paths of a big site: more than PAGES, fewer than the 100 feedback/by-page lists in one answer. */
const BIG_PAGES = Array.from({ length: 90 }, (_, i) =>
  i < PAGES.length ? (PAGES[i] as string) : `/guides/topic-${String(i).padStart(2, '0')}`
)

function bigFeedback(i: number): FeedbackRow {
  const row = generatedFeedback(i)
  // Busy pages get more feedback; every seventh page draws mostly thumbs-down.
  const page = Math.floor(BIG_PAGES.length * ((i * 0.618_034) % 1) ** 2)
  const path = BIG_PAGES[page] as string
  if (row.source !== 'contextual') return { ...row, path }
  return { ...row, path, helpful: page % 7 === 3 ? i % 3 === 1 : i % 5 !== 0 }
}

const ASKS = [
  'How do I %?',
  'Can I % from the CLI?',
  'Is there a way to % in bulk?',
  'Why does % fail?'
]

/** Question `q` of a big site: 4 forms × 30 topics, then the same in other projects' words. */
function bigQuestion(q: number): string {
  const ask = ASKS[q % ASKS.length] as string
  const topic = TOPICS[Math.floor(q / ASKS.length) % TOPICS.length] as string
  const round = Math.floor(q / (ASKS.length * TOPICS.length))
  return ask.replace('%', round ? `${topic} (${round + 1})` : topic)
}

function bigConversation(i: number): ConversationRow {
  const row = generatedConversation(i)
  // 400 questions, a few asked hundreds of times, a long tail asked once or twice; two in three of
  // them not covered by the docs.
  const q = Math.floor(400 * ((i * 0.618_034) % 1) ** 3)
  const unanswered = q % 3 !== 0
  return {
    ...row,
    query: variant(bigQuestion(q), i),
    response: `ASSISTANT-REPLY-${i}: ${unanswered ? 'I could not find this.' : 'See the reference.'}`,
    sources: unanswered ? [] : row.sources,
    resolutionStatus: unanswered ? 'unanswered' : 'answered'
  }
}

/**
 * The big site: 100,000 search events over 20,000 terms, 10,000 feedback entries over 90
 * pages, 10,000 assistant turns over 400 questions.
 */
export function bigSiteGapsData(): GapsData {
  const hits = zipfHits(BIG_SITE.searchTerms, BIG_SITE.searchEvents)
  return {
    searches: hits.map((h, i) => ({ ...generatedSearch(i), hits: h })),
    feedback: Array.from({ length: BIG_SITE.feedback }, (_, i) => bigFeedback(i)),
    conversations: Array.from({ length: BIG_SITE.conversations }, (_, i) => bigConversation(i))
  }
}
