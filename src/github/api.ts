import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { RequestError } from '@octokit/request-error'
import { type Clock, systemClock } from '../runner/clock.js'
import { USER_AGENT } from '../runner/runner.js'
import { HttpError } from '../runner/connections.js'
import { InputError } from '../runner/errors.js'
import { sendableSecret } from '../runner/inputs.js'
import { type PullRequestRef, parsePullRequest } from './event.js'
import type { GraphQL } from './history.js'
import { RateLimitError, limited } from './limits.js'
import { GitHubTransport } from './transport.js'
import { parseWithoutPatches } from './without-patches.js'

export { RateLimitError }

/** The few GitHub operations the action uses. */
export interface GitHubApi {
  listComments(issue: number): Promise<IssueComment[]>
  createComment(issue: number, body: string): Promise<number>
  updateComment(id: number, body: string): Promise<void>
  /** The user's permission and role name on the repository. */
  permission(user: string): Promise<{ permission?: string; roleName?: string }>
  pull(pull: number): Promise<PullRequestRef>
  /** Closes a pull request without merging it; answers with the pull request as it now is. */
  closePull(pull: number): Promise<PullRequestRef>
  /** Requests reviews on a pull request from these people (each with access to the repository). */
  requestReviewers(pull: number, reviewers: string[]): Promise<void>
  /**
   * Ends the connections, also one still waiting for a proxy: call it when the run is done with
   * GitHub, or a tunnel that never opened keeps the process alive.
   */
  close(): Promise<void>
  /** GitHub's GraphQL API: history and file lists without patches (history.ts). */
  graphql: GraphQL
  /** One page of a commit's files, with their patches. */
  commitFiles(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** One page of a commit's files without their patches, which are dropped as the answer streams in. */
  commitPaths(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** A pull request's files with their patches, a page at a time: the next page is read only when asked for. */
  pullFilePages(pull: number, perPage: number): AsyncIterable<ChangedFile[]>
  /** Open and closed issues (not pull requests) with this label, most recently updated first. */
  issuesWithLabel(label: string): Promise<IssueRecord[]>
  createIssue(title: string, body: string, labels: string[]): Promise<IssueRecord>
  updateIssue(
    number: number,
    change: { title?: string; body?: string; state?: 'open' | 'closed'; labels?: string[] }
  ): Promise<IssueRecord>
  /**
   * Every file path of the default branch, in one request (GitHub's recursive tree); `truncated`
   * when GitHub listed only part of a very large tree.
   */
  treePaths(): Promise<{ paths: string[]; truncated: boolean }>
  /** A file's text on the default branch, or undefined when there is no such file (or it is no text). */
  fileText(path: string): Promise<string | undefined>
  /** A review's inline comments: the first PAGE_SIZE, oldest first. */
  reviewComments(pull: number, review: number): Promise<ReviewComment[]>
  /**
   * How `head` stands to `base` (GitHub's compare: `ahead`, `behind`, `diverged`, `identical`), or
   * `missing` when GitHub knows no such commit (404): one request.
   */
  compareStatus(base: string, head: string): Promise<string>
}

/** An inline comment of a pull request review: its text is untrusted. */
export interface ReviewComment {
  path: string
  /** The line it is on, when GitHub says (none on an outdated diff). */
  line?: number
  body: string
}

/** An issue as the action reads it: its text, and where it is. */
export interface IssueRecord {
  number: number
  title: string
  body: string
  state: string
  url: string
  labels: string[]
}

export interface IssueComment {
  id: number
  body: string
  authorType: string
  /** The author's login: who wrote the comment. */
  author: string
}

export interface ChangedFile {
  path: string
  previousPath?: string
  /** added, removed, modified, renamed, copied, changed, unchanged */
  status: string
  additions: number
  deletions: number
  /** Absent for binary files and very large diffs. */
  patch?: string
}

/** Pages of 100: the most GitHub serves per request. */
export const PAGE_SIZE = 100
/** A page of a commit's files without patches, kept at most: 100 entries and a long message fit many times over. */
const MAX_COMMIT_BYTES = 8 << 20
/** Pages of an issue's comments read at most: the first and the newest. */
const COMMENT_PAGES = 2

/** The page number of a `link` header's `rel="last"`, or 1 when there is none. */
export function lastPage(link: string | undefined): number {
  const match = /<([^>]+)>;\s*rel="last"/.exec(link ?? '')
  if (!match?.[1]) return 1
  try {
    const page = Number(new URL(match[1]).searchParams.get('page'))
    return Number.isSafeInteger(page) && page > 1 ? page : 1
  } catch {
    return 1
  }
}

/**
 * A failed GitHub call in a few words. Octokit reports a call that never got an answer (refused,
 * DNS, a time limit) as a RequestError with status 500 and no response: that is no HTTP 500, and
 * says so.
 */
export function describeGitHubError(error: unknown): string {
  if (error instanceof RequestError && error.response) return `HTTP ${error.status}`
  // Not a call that failed but one that could not be made (an unusable token, a rate limit too
  // long to wait for): its own words.
  if (error instanceof InputError || error instanceof RateLimitError) return error.message
  const failure = error as { cause?: unknown; message?: unknown } | undefined
  const cause = failure?.cause as
    { code?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined
  // The connection's own account (a proxy that refused the tunnel, or asks for credentials).
  if (cause?.cause instanceof HttpError) return `no answer from GitHub (${cause.cause.message})`
  const code = cause?.code ?? cause?.cause?.code
  const why =
    typeof code === 'string'
      ? code
      : typeof failure?.message === 'string'
        ? failure.message
        : String(error)
  return `no answer from GitHub (${why})`
}

/**
 * GitHub refused for want of access (401, 403, 404: a private repository answers 404 to a token
 * that cannot see it), as opposed to failing or not answering.
 */
export function refusedAccess(error: unknown): boolean {
  return (
    (error instanceof RequestError &&
      error.response !== undefined &&
      [401, 403, 404].includes(error.status)) ||
    graphqlRefused(error)
  )
}

/**
 * GitHub's GraphQL API answered, but named the repository as not there or not allowed (errors of
 * type NOT_FOUND or FORBIDDEN on `repository`): what a token that cannot see it gets.
 */
function graphqlRefused(error: unknown): boolean {
  const failure = error as { name?: unknown; errors?: unknown } | undefined
  if (failure?.name !== 'GraphqlResponseError' || !Array.isArray(failure.errors)) return false
  return failure.errors.some(e => {
    const entry = (e ?? {}) as { type?: unknown; path?: unknown }
    return (
      (entry.type === 'NOT_FOUND' || entry.type === 'FORBIDDEN') &&
      Array.isArray(entry.path) &&
      entry.path[0] === 'repository'
    )
  })
}

/** The error is a GitHub call that failed (answered or not), rather than a wrong answer or a bug. */
export const isGitHubCallError = (error: unknown): boolean => error instanceof RequestError

/** GitHub answered 404: no such thing, or none this token may see. */
export const notFound = (error: unknown): boolean =>
  error instanceof RequestError && error.response !== undefined && error.status === 404

/** What to grant, as one sentence: `grant` is what the workflow's `permissions:` block needs. */
export const permissionHint = (grant: string): string =>
  `Give the workflow ${grant} (a permissions block that sets any permission sets the others to none).`

/** Where the comments go: the run's repository, on the run's GitHub. */
export interface RepoRef {
  owner: string
  repo: string
  /** The REST API's base URL (GITHUB_API_URL; GitHub Enterprise Server has its own). */
  apiUrl: string
}

export interface GitHubOptions {
  /**
   * The wait before the first retry; the n-th waits n² times as long (@octokit/plugin-retry's
   * schedule and its default, 1 s). For tests.
   */
  retryBaseMs?: number
  /** Times the waits before retries and their deadline (the runner's clock; a virtual one in tests). */
  clock?: Clock
  /** The run's connections: this one is closed with them. */
  session?: GitHubSession
  /** The input the token comes from, named when it cannot be used ('github-token' by default). */
  tokenInput?: string
  /** The step's time limit on `clock`, past which no rate limit is waited for (the session's by default). */
  deadline?: number
}

/** The GitHub connections a run opens, closed together when it ends. */
export class GitHubSession {
  private readonly open = new Set<Pick<GitHubApi, 'close'>>()

  /** `deadline`: the step's time limit on the run's clock, for every connection of the run. */
  constructor(readonly deadline?: number) {}

  add(api: Pick<GitHubApi, 'close'>): void {
    this.open.add(api)
  }

  async close(): Promise<void> {
    const all = [...this.open]
    this.open.clear()
    await Promise.all(all.map(api => api.close()))
  }
}

/** @octokit/plugin-retry's retryAfterBaseValue. */
const RETRY_BASE_MS = 1000

/**
 * The toolkit's Octokit (@actions/github's getOctokit) with the same plugins and proxy rules as every
 * other action, but over connections the action owns and closes (transport.ts), with
 * @octokit/plugin-retry:
 * reads and comment updates are retried up to three times when GitHub does not answer or fails
 * (a 5xx, a 429; not 400, 401, 403, 404, 410, 422, 451); creating a comment never is (a retry
 * could post it twice). Every request, its retries included, is bounded by its own time limit and
 * by the run's cancel signal, so a slow GitHub cannot hold a cancelled step. GitHub's rate limits
 * are waited for as it asks (@octokit/plugin-throttling), never past the step's time limit
 * (limits.ts; docs/retries-and-rate-limits.md).
 */
export function connectGitHub(
  token: string,
  { owner, repo, apiUrl }: RepoRef,
  cancel?: AbortSignal,
  {
    retryBaseMs = RETRY_BASE_MS,
    clock = systemClock,
    session,
    tokenInput,
    deadline = session?.deadline
  }: GitHubOptions = {}
): GitHubApi {
  // The first moment the token is needed: an unexpanded `${{ … }}` fails here, saying so.
  sendableSecret(tokenInput ?? 'github-token', token)
  const baseUrl = apiUrl.replace(/\/+$/, '')
  const transport = new GitHubTransport(baseUrl)
  session?.add(transport)
  const octokit = getOctokit(
    token,
    {
      baseUrl,
      userAgent: USER_AGENT,
      // Replaces the toolkit's `request` (its fetch over a proxy dispatcher nothing closes).
      request: { fetch: transport.fetch },
      // The plugin decides what is retried and how often; `limited` does the waiting.
      retry: { retryAfterBaseValue: 0 }
    },
    // In this order: `limited` wraps each attempt, inside the retry plugin.
    limited({ cancel, retryBaseMs, clock, deadline }),
    retry
  )
  // GitHub pages a commit's files by `page` and `per_page`; the commit's own fields repeat.
  const commitPage = (
    sha: string,
    page: number,
    perPage: number,
    request: { parseSuccessResponseBody?: boolean }
  ) => octokit.rest.repos.getCommit({ owner, repo, ref: sha, page, per_page: perPage, request })
  return {
    async listComments(issue) {
      // GitHub lists an issue's comments oldest first. What the action looks for is near either
      // end (its own comment early, the newest records late), so it reads the first page and, from
      // the last page GitHub names, backwards: COMMENT_PAGES requests at most, however long the thread.
      const page = (n: number) =>
        octokit.rest.issues.listComments({
          owner,
          repo,
          issue_number: issue,
          per_page: PAGE_SIZE,
          page: n
        })
      const first = await page(1)
      const pages = [first.data]
      const last = lastPage(first.headers.link)
      for (let n = last; n > 1 && pages.length < COMMENT_PAGES; n--)
        pages.splice(1, 0, (await page(n)).data)
      return pages.flat().map(c => ({
        id: c.id,
        body: c.body ?? '',
        authorType: c.user?.type ?? '',
        author: c.user?.login ?? ''
      }))
    },
    async createComment(issue, body) {
      const { data } = await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: issue,
        body,
        // Never retried: GitHub may have posted the comment before failing to say so.
        request: { retries: 0 }
      })
      return data.id
    },
    async updateComment(id, body) {
      await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: id,
        body
      })
    },
    async permission(user) {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner,
        repo,
        username: user
      })
      // An answer without a permission (a redirect's page, a proxy's) is no answer at all.
      if (typeof data?.permission !== 'string')
        throw new Error('GitHub answered without a permission')
      const roleName = (data as { role_name?: unknown }).role_name
      return {
        permission: data.permission,
        roleName: typeof roleName === 'string' ? roleName : undefined
      }
    },
    async pull(number) {
      const { data } = await octokit.rest.pulls.get({
        owner,
        repo,
        pull_number: number
      })
      const pr = parsePullRequest(data)
      if (!pr) throw new Error(`GitHub answered pull request #${number} without a number`)
      return pr
    },
    async closePull(number) {
      const { data } = await octokit.rest.pulls.update({
        owner,
        repo,
        pull_number: number,
        state: 'closed'
      })
      const pr = parsePullRequest(data)
      if (!pr) throw new Error(`GitHub answered pull request #${number} without a number`)
      return pr
    },
    async requestReviewers(number, reviewers) {
      await octokit.rest.pulls.requestReviewers({
        owner,
        repo,
        pull_number: number,
        reviewers
      })
    },
    graphql: (query, variables) => octokit.graphql(query, variables),
    async commitFiles(sha, page, perPage) {
      const { data } = await commitPage(sha, page, perPage, {})
      return asFiles(data.files ?? [])
    },
    async commitPaths(sha, page, perPage) {
      // The answer's body as it streams in, not parsed: its patches are dropped first.
      const { data } = await commitPage(sha, page, perPage, { parseSuccessResponseBody: false })
      const body = data as unknown as AsyncIterable<Uint8Array>
      const commit = (await parseWithoutPatches(body, MAX_COMMIT_BYTES)) as { files?: unknown }
      return asFiles(Array.isArray(commit?.files) ? commit.files : [])
    },
    async *pullFilePages(pull, perPage) {
      const pages = octokit.paginate.iterator(octokit.rest.pulls.listFiles, {
        owner,
        repo,
        pull_number: pull,
        per_page: perPage
      })
      for await (const { data } of pages) yield asFiles(data)
    },
    async issuesWithLabel(label) {
      const { data } = await octokit.rest.issues.listForRepo({
        owner,
        repo,
        labels: label,
        state: 'all',
        sort: 'updated',
        direction: 'desc',
        per_page: 20
      })
      return data.filter(issue => !issue.pull_request).map(asIssue)
    },
    async createIssue(title, body, labels) {
      const { data } = await octokit.rest.issues.create({
        owner,
        repo,
        title,
        body,
        labels,
        // Never retried: GitHub may have opened the issue before failing to say so.
        request: { retries: 0 }
      })
      return asIssue(data)
    },
    async updateIssue(number, change) {
      const { data } = await octokit.rest.issues.update({
        owner,
        repo,
        issue_number: number,
        ...change
      })
      return asIssue(data)
    },
    async reviewComments(pull, review) {
      const { data } = await octokit.rest.pulls.listCommentsForReview({
        owner,
        repo,
        pull_number: pull,
        review_id: review,
        per_page: PAGE_SIZE
      })
      return (Array.isArray(data) ? data : []).flatMap(c =>
        typeof c?.path === 'string' && typeof c.body === 'string'
          ? [{ path: c.path, body: c.body, ...lineOf(c) }]
          : []
      )
    },
    async treePaths() {
      const { data } = await octokit.rest.git.getTree({
        owner,
        repo,
        tree_sha: 'HEAD',
        recursive: 'true'
      })
      const entries = Array.isArray(data.tree) ? data.tree : []
      return {
        paths: entries
          .filter(e => e?.type === 'blob' && typeof e.path === 'string')
          .map(e => e.path as string),
        truncated: data.truncated === true
      }
    },
    async fileText(path) {
      const data = await octokit.rest.repos.getContent({ owner, repo, path }).then(
        answer => answer.data,
        (error: unknown) => {
          if (notFound(error)) return undefined
          throw error
        }
      )
      if (!data || Array.isArray(data) || data.type !== 'file' || !('content' in data))
        return undefined
      if (data.encoding !== 'base64' || typeof data.content !== 'string') return undefined
      return Buffer.from(data.content, 'base64').toString('utf8')
    },
    async compareStatus(base, head) {
      try {
        // One commit a page: only the status is read, not the range.
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
          owner,
          repo,
          basehead: `${base}...${head}`,
          per_page: 1
        })
        return typeof data.status === 'string' ? data.status : 'missing'
      } catch (error) {
        if (notFound(error)) return 'missing'
        throw error
      }
    },
    close: () => transport.close()
  }
}

/** An inline comment's line: `line`, or the older `original_line`, when a positive integer. */
function lineOf(c: { line?: unknown; original_line?: unknown }): { line?: number } {
  const line = [c.line, c.original_line].find(n => Number.isSafeInteger(n) && (n as number) > 0)
  return line === undefined ? {} : { line: line as number }
}

function asIssue(data: {
  number: number
  title: string
  body?: string | null
  state: string
  html_url: string
  labels: (string | { name?: string })[]
}): IssueRecord {
  return {
    number: data.number,
    title: typeof data.title === 'string' ? data.title : '',
    body: typeof data.body === 'string' ? data.body : '',
    state: typeof data.state === 'string' ? data.state : '',
    url: typeof data.html_url === 'string' ? data.html_url : '',
    labels: (Array.isArray(data.labels) ? data.labels : [])
      .map(l => (typeof l === 'string' ? l : (l?.name ?? '')))
      .filter(Boolean)
  }
}

/** GitHub's file entries, each field checked: a missing count is 0, a missing name drops the entry. */
function asFiles(raw: unknown[]): ChangedFile[] {
  const files: ChangedFile[] = []
  for (const item of raw) {
    const f = (item ?? {}) as Record<string, unknown>
    if (typeof f.filename !== 'string' || !f.filename) continue
    const n = (v: unknown): number => (typeof v === 'number' && v >= 0 ? v : 0)
    files.push({
      path: f.filename,
      previousPath: typeof f.previous_filename === 'string' ? f.previous_filename : undefined,
      status: typeof f.status === 'string' ? f.status : 'changed',
      additions: n(f.additions),
      deletions: n(f.deletions),
      patch: typeof f.patch === 'string' ? f.patch : undefined
    })
  }
  return files
}
