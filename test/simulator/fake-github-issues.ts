import { iso } from './fake-github-changes.js'

export interface FakeComment {
  id: number
  issue: number
  /** The repository, when the comment was posted through the API (`owner/repo`). */
  repo?: string
  body: string
  user: { login: string; type: 'Bot' | 'User' }
  /** When it was written (epoch ms), by the fake's clock. */
  at?: number
}

/** An issue of the run's repository (the dashboard), as the issues routes keep it. */
export interface FakeIssue {
  number: number
  title: string
  body: string
  state: 'open' | 'closed'
  labels: string[]
  user: { login: string; type: 'Bot' | 'User' }
  /** Orders the issues by their last update (GitHub's `sort: updated`): a counter, unique. */
  updatedAt: number
  /** When it was last updated, on GitHub's clock (`now`): its `updated_at`. */
  touchedAt?: number
  /** The body's edits, oldest first: who made each and when (the fake's `now`). */
  edits?: { by: string; at: number }[]
  locked?: boolean
  /** When it was opened (the fake's `now`). */
  createdAt?: number
}

/** What the fake GitHub keeps of issues and their comments. */
export interface IssueStore {
  readonly issues: Map<number, FakeIssue>
  readonly comments: FakeComment[]
  /** Repositories with Issues turned off. */
  readonly issuesOff: ReadonlySet<string>
  /** GitHub's clock. */
  readonly now: () => number
  /** The numbers given last: to an issue, to an update (their order), to a comment. */
  readonly numbers: { issue: number; tick: number; comment: number }
  /** The fake's base URL (GITHUB_API_URL). */
  readonly url: string
  commentsOn(issue: number): FakeComment[]
  addComment(issue: number, body: string, user: FakeComment['user'], repo?: string): FakeComment
}

/** An answer of an issue route; `lastPage` when a page follows it (GitHub's `link` header). */
export interface IssueAnswer {
  status: number
  body: unknown
  lastPage?: number
}

/** GitHub's answer to an issue route of a repository with Issues turned off (documented: 410). */
const ISSUES_OFF = {
  message: 'Issues are disabled for this repo',
  documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
  status: '410'
}

const MAX_ISSUE_BODY = 65_536

/**
 * An issue of acme/app opened by `user` (a person by default), as through GitHub's page: what a
 * test's people do to the dashboard (open a copy, label it).
 */
export function openIssue(
  store: IssueStore,
  over: Partial<FakeIssue> & { title: string; body: string }
): FakeIssue {
  const at = store.now()
  const issue: FakeIssue = {
    number: ++store.numbers.issue,
    state: 'open',
    labels: [],
    user: { login: 'mallory', type: 'User' },
    updatedAt: ++store.numbers.tick,
    createdAt: at,
    ...over
  }
  store.issues.set(issue.number, issue)
  return issue
}

/** A person's edit of an issue's body (a tick, a restore from the edit history), as GitHub records it. */
export function editIssue(store: IssueStore, number: number, body: string, login: string): void {
  const issue = store.issues.get(number)
  if (!issue) throw new Error(`no issue #${number}`)
  issue.body = body
  ;(issue.edits ??= []).push({ by: login, at: store.now() })
  touch(store, issue)
}

/** The issue was updated now: first in the order of updates, its `updated_at` GitHub's now. */
export function touch(store: IssueStore, issue: FakeIssue): void {
  issue.updatedAt = ++store.numbers.tick
  issue.touchedAt = store.now()
}

/**
 * The issues routes the dashboard uses (list by label, create, read, update) and an issue's
 * comments (list, create, update). An answer, `null` when a failure was sent, or undefined when
 * the route is another. `fail` waits out the route's delay, then sends its failure.
 */
export async function issueRoute(
  store: IssueStore,
  method: string,
  route: string,
  url: URL,
  body: unknown,
  fail: (name: string) => Promise<boolean>,
  user: FakeComment['user']
): Promise<IssueAnswer | null | undefined> {
  const changes = (body ?? {}) as Partial<FakeIssue> & { labels?: string[] }
  const repo = /^\/repos\/([^/]+\/[^/]+)\//.exec(route)?.[1] ?? 'acme/app'
  // Issues turned off: creating, reading or editing an issue answers 410, as GitHub documents.
  if (store.issuesOff.has(repo) && /^\/repos\/[^/]+\/[^/]+\/issues(\/\d+)?$/.test(route))
    if (!(method === 'GET' && /\/issues$/.test(route))) return { status: 410, body: ISSUES_OFF }
  if (/^\/repos\/[^/]+\/[^/]+\/issues$/.test(route)) {
    if (method === 'GET') {
      if (await fail('list-issues')) return null
      const label = url.searchParams.get('labels')
      const state = url.searchParams.get('state') ?? 'open'
      const found = [...store.issues.values()]
        .filter(i => (!label || i.labels.includes(label)) && (state === 'all' || i.state === state))
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .slice(0, Number(url.searchParams.get('per_page') ?? 30))
      return { status: 200, body: found.map(i => issueView(i, repo)) }
    }
    if (method === 'POST') {
      if (await fail('create-issue')) return null
      if (tooLong(changes.body)) return tooLong(changes.body)
      const issue: FakeIssue = {
        number: ++store.numbers.issue,
        title: changes.title ?? '',
        body: changes.body ?? '',
        state: 'open',
        labels: changes.labels ?? [],
        user,
        updatedAt: ++store.numbers.tick,
        createdAt: store.now()
      }
      store.issues.set(issue.number, issue)
      return { status: 201, body: issueView(issue, repo) }
    }
  }
  let m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/.exec(route)
  if (m && (method === 'PATCH' || method === 'GET')) {
    if (await fail(method === 'GET' ? 'get-issue' : 'update-issue')) return null
    const issue = store.issues.get(Number(m[1]))
    if (!issue) return { status: 404, body: { message: 'Not Found' } }
    if (method === 'PATCH') {
      if (tooLong(changes.body)) return tooLong(changes.body)
      if (typeof changes.title === 'string') issue.title = changes.title
      if (typeof changes.body === 'string' && changes.body !== issue.body) {
        issue.body = changes.body
        ;(issue.edits ??= []).push({ by: user.login, at: store.now() })
      }
      if (changes.state === 'open' || changes.state === 'closed') issue.state = changes.state
      if (Array.isArray(changes.labels)) issue.labels = changes.labels.map(String)
      touch(store, issue)
    }
    return { status: 200, body: issueView(issue, repo) }
  }
  if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(route))) {
    const issue = Number(m[1])
    if (method === 'GET') {
      if (await fail('list-comments')) return null
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const all = store.commentsOn(issue)
      const slice = all.slice((page - 1) * perPage, page * perPage)
      return {
        status: 200,
        body: slice.map(c => commentView(c, store.url)),
        ...(page * perPage < all.length ? { lastPage: Math.ceil(all.length / perPage) } : {})
      }
    }
    if (method === 'POST') {
      if (await fail('create-comment')) return null
      const comment = store.addComment(
        issue,
        (body as { body: string }).body,
        user,
        /^\/repos\/([^/]+\/[^/]+)\//.exec(route)?.[1]
      )
      return { status: 201, body: commentView(comment, store.url) }
    }
  }
  if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(route)) && method === 'PATCH') {
    if (await fail('update-comment')) return null
    const comment = store.comments.find(c => c.id === Number(m?.[1]))
    if (!comment) return { status: 404, body: { message: 'Not Found' } }
    comment.body = (body as { body: string }).body
    return { status: 200, body: commentView(comment, store.url) }
  }
  return undefined
}

/** An issue as GitHub's REST API shows it. */
export function issueView(issue: FakeIssue, repo = 'acme/app'): Record<string, unknown> {
  return {
    id: issue.number * 1000,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    html_url: `https://github.com/${repo}/issues/${issue.number}`,
    labels: issue.labels.map((name, i) => ({ id: i + 1, name })),
    user: issue.user,
    created_at: '2026-11-20T10:00:00Z',
    // In whole seconds, as GitHub gives its times.
    updated_at: iso(
      issue.touchedAt ?? issue.createdAt ?? Date.UTC(2026, 10, 20) + issue.updatedAt * 1000
    )
  }
}

/** A comment as GitHub's REST API shows it; `base` is the fake's URL. */
export function commentView(c: FakeComment, base: string): Record<string, unknown> {
  return {
    id: c.id,
    body: c.body,
    user: c.user,
    html_url: `https://github.com/acme/docs/issues/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${base}/repos/acme/docs/issues/${c.issue}`
  }
}

/** GitHub's answer to an issue body over its 65,536 characters: 422, nothing written. */
function tooLong(body: unknown): IssueAnswer | undefined {
  if (typeof body !== 'string' || body.length <= MAX_ISSUE_BODY) return undefined
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [
        {
          resource: 'Issue',
          code: 'custom',
          field: 'body',
          message: `body is too long (maximum is ${MAX_ISSUE_BODY} characters)`
        }
      ],
      documentation_url: 'https://docs.github.com/rest/issues/issues#update-an-issue',
      status: '422'
    }
  }
}
