import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type FakeCommit,
  type FakePull,
  type FakeTimelineItem,
  canSee,
  currentName,
  repositoryId,
  changeRoute,
  iso,
  pullView
} from './fake-github-changes.js'
import { type GraphQLRequest, answerGraphQL } from './fake-github-graphql.js'
import { contentsRoute } from './fake-github-contents.js'

export type { FakeCommit, FakeFile, FakePull, FakeTimelineItem } from './fake-github-changes.js'

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

/** An inline comment of a review, as the review comments route lists it. */
export interface FakeReviewComment {
  path: string
  line?: number
  body: string
  user?: string
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

export interface GitHubRequest {
  method: string
  path: string
  query: Record<string, string>
  authorization?: string
  userAgent?: string
  /** The media type asked for (`accept`): a raw answer is bytes, not JSON. */
  accept?: string
  body?: unknown
  /** When it arrived, by the fake's clock (GitHub's). */
  at?: number
  /** The answer, for checking against GitHub's OpenAPI description. */
  status?: number
  responseBody?: unknown
}

/** GitHub's answer to a secondary rate limit, in its documented words (REST API, "Rate limits"). */
const SECONDARY_LIMIT = {
  message:
    'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
  documentation_url:
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits'
}

/** GitHub's answer to a primary rate limit (REST API, "Rate limits"): 403 with the limit's headers. */
const PRIMARY_LIMIT = {
  message:
    'API rate limit exceeded for installation ID 1. If you reach out to GitHub Support for help, please include the request ID.',
  documentation_url:
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits'
}

/** GitHub's answer to content created too fast (a secondary limit's other words): 422. */
const TOO_QUICKLY = {
  message: 'Validation Failed',
  errors: [
    { resource: 'Issue', code: 'custom', field: 'body', message: 'was submitted too quickly' }
  ],
  documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
  status: '422'
}

/** GitHub's answer to an issue route of a repository with Issues turned off (documented: 410). */
const ISSUES_OFF = {
  message: 'Issues are disabled for this repo',
  documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
  status: '410'
}

/** How a route fails, when a test says so (`failures`). */
export type FakeFailure =
  | number
  | {
      status: number
      times: number
      /** Seconds: GitHub's secondary rate limit, its `retry-after` and its documented message. */
      retryAfter?: number
      /** Seconds from the fake's now: GitHub's primary rate limit, its `x-ratelimit-reset`. */
      rateLimitReset?: number
      /** A 422 "was submitted too quickly". */
      tooQuickly?: true
    }

/**
 * GraphQL errors in an answer of 200, as GitHub sends them for the failures it does not answer with
 * a status: its own time-outs ("Something went wrong"), RATE_LIMITED (with the limit's headers),
 * "was submitted too quickly".
 */
export interface FakeGraphQLErrors {
  errors: { type?: string; message: string }[]
  times: number
}

/**
 * A loopback stand-in for the few GitHub REST routes the action uses: issue comments (list, create,
 * update), collaborator permission, and the read-only routes of code changes (fake-github-changes.ts). Optionally served under a prefix, as GitHub Enterprise Server's
 * `/api/v3` is.
 */
/** The fake GitHubs of this process, by their URL: test helpers find a run's from its GITHUB_API_URL. */
const RUNNING = new Map<string, FakeGitHub>()

/** The number of the first issue the fake creates (comments' issues are numbered by the tests). */
const FIRST_ISSUE = 501
/** The id of the first comment the fake writes. */
const FIRST_COMMENT_ID = 1000

export class FakeGitHub {
  readonly requests: GitHubRequest[] = []
  readonly comments: FakeComment[] = []
  /** Permission answers by login: GitHub's `permission` and `role_name`. */
  readonly permissions = new Map<string, { permission: string; role_name: string }>()
  /**
   * Status to answer instead, by route name: 'create-comment', 'update-comment', 'list-comments',
   * 'permission', 'repo-comments', 'pull-files', 'pull', 'update-pull', 'request-reviewers', 'compare', 'commit',
   * 'commit-pulls', 'review-comments', 'graphql', 'pull-activity' (GraphQL's timelineItems),
   * 'contents', 'tree' (the recursive tree).
   * Every time, or with `times` only that many times, after which the route answers again. With
   * `retryAfter` (seconds), the answer is GitHub's secondary rate limit (403 or 429 with a
   * `retry-after` header and its documented message).
   */
  readonly failures = new Map<string, FakeFailure>()
  /**
   * GraphQL answers of 200 holding only errors, by route name: 'graphql', 'search' (the issue
   * search), 'pull-activity'.
   */
  readonly graphqlErrors = new Map<string, FakeGraphQLErrors>()
  /** Repositories (`owner/repo`) with Issues turned off: their issue routes answer 410. */
  readonly issuesOff = new Set<string>()
  /**
   * How long a new issue takes to reach GitHub's search (ms on the fake's clock): GitHub's search is
   * eventually consistent, so a search right after a creation may not find the issue.
   */
  searchLagMs = 0
  /**
   * Held answers, by the same route names: until a promise settles (then answered as usual), or,
   * for `Infinity`, until reset() or close(), which then drop the connection without acting on the
   * request. A number of milliseconds waits that long (for running the fake by hand, not in tests).
   */
  readonly delays = new Map<string, number | Promise<unknown>>()
  private held: (() => void)[] = []
  /** Pull requests by `owner/repo#number`. */
  readonly pulls = new Map<string, FakePull>()
  readonly commits = new Map<string, FakeCommit>()
  /** Comparisons by `base...head`: the commits between, oldest first. */
  readonly comparisons = new Map<string, FakeCommit[]>()
  readonly branches = new Map<string, string[]>()
  /** Repositories no token may see: 404 on REST, NOT_FOUND on GraphQL, as GitHub answers them. */
  readonly hiddenRepos = new Set<string>()
  /** Private repositories: only the tokens listed (by value) may see them. */
  readonly privateRepos = new Map<string, ReadonlySet<string>>()
  /** Renamed repositories, old name to new (rename()): REST redirects them, GraphQL follows them. */
  readonly renamed = new Map<string, string>()
  /** Each repository's number, kept through a rename. */
  readonly repositoryIds = new Map<string, number>()
  /** The files of a repository's default branch, by `owner/repo`, for its contents route. */
  readonly trees = new Map<string, string[]>()
  /** Files' texts, by `owner/repo:path`, for the contents route (a file of `trees` not here is empty). */
  readonly texts = new Map<string, string>()
  /** Repositories whose recursive tree is listed only in part, by `owner/repo`: the first n files. */
  readonly truncatedTrees = new Map<string, number>()
  /** Files' sizes by `owner/repo:path`, for files larger than a test holds (over 100 MB). */
  readonly sizes = new Map<string, number>()
  /** Issues of the run's repository, by number (numbers from 501 on, apart from comments' issues). */
  readonly issues = new Map<number, FakeIssue>()
  /**
   * Who each token is (by the token's value): GraphQL's `viewer`, and the author of the comments it
   * posts. A token not listed is the bot (`botLogin`, GITHUB_TOKEN's `github-actions[bot]`); those
   * the fake started with (`start`'s `tokenUsers`, an App's `<slug>[bot]`) come back on reset().
   */
  readonly tokenUsers = new Map<string, FakeComment['user']>()
  /** Tokens GitHub refuses (by value), with the status every request with them gets. */
  readonly refusedTokens = new Map<string, number>()
  /** Tokens that may read but not write (a fine-grained token with read-only permissions): 403 on writes. */
  readonly readOnlyTokens = new Set<string>()
  /** A review's inline comments, by `owner/repo#pull/review`. */
  readonly reviewComments = new Map<string, FakeReviewComment[]>()
  /** TCP connections opened to the fake since it started or was reset: a client's pool shows here. */
  connections = 0
  private issueCount = FIRST_ISSUE - 1
  private clockTick = 0
  private commitCount = 0
  private readonly requestListeners: ((request: GitHubRequest) => void)[] = []
  private readonly commentListeners: ((comment: FakeComment) => void)[] = []
  private server: Server
  private base = ''
  private nextId = FIRST_COMMENT_ID
  /**
   * How far GitHub's clock is ahead of the runner's (ms; behind when negative): GitHub stamps its
   * answers (`date`), edits and `updated_at` on its own clock, which is not the runner's.
   */
  clockSkewMs = 0

  /** GitHub's clock: what comments, issues and their edits are written at, and answers are dated by. */
  readonly now = (): number => this.runnersNow() + this.clockSkewMs

  private constructor(
    private readonly prefix: string,
    readonly botLogin: string,
    /** The runner's clock: the runs' clock in tests that move it. GitHub's is `now`. */
    private readonly runnersNow: () => number,
    private readonly identities: ReadonlyMap<string, FakeComment['user']> = new Map()
  ) {
    for (const [token, user] of identities) this.tokenUsers.set(token, user)
    this.server = createServer((req, res) => void this.handle(req, res))
    this.server.on('connection', () => void this.connections++)
  }

  static async start(
    options: {
      prefix?: string
      botLogin?: string
      now?: () => number
      /** Who these tokens are (by value), now and after each reset(). */
      tokenUsers?: Record<string, FakeComment['user']>
    } = {}
  ): Promise<FakeGitHub> {
    const fake = new FakeGitHub(
      options.prefix ?? '',
      options.botLogin ?? 'github-actions[bot]',
      options.now ?? Date.now,
      new Map(Object.entries(options.tokenUsers ?? {}))
    )
    await new Promise<void>(resolve => fake.server.listen(0, '127.0.0.1', resolve))
    fake.base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}${fake.prefix}`
    RUNNING.set(fake.base, fake)
    return fake
  }

  /** The fake GitHub this process started at `url` (a run's GITHUB_API_URL), if any. */
  static at(url: string | undefined): FakeGitHub | undefined {
    return url === undefined ? undefined : RUNNING.get(url.replace(/\/+$/, ''))
  }

  /**
   * Puts a file on `repo`'s default branch with `text`, or takes it away (undefined), as a commit
   * there would: the contents route and the tree serve it.
   */
  setFile(repo: string, path: string, text: string | undefined): void {
    const files = (this.trees.get(repo) ?? []).filter(f => f !== path)
    if (text === undefined) this.texts.delete(`${repo}:${path}`)
    else {
      files.push(path)
      this.texts.set(`${repo}:${path}`, text)
    }
    this.trees.set(repo, files)
  }

  /** The value for GITHUB_API_URL. */
  get url(): string {
    return this.base
  }

  reset(): void {
    this.release()
    this.requests.length = 0
    this.connections = 0
    this.comments.length = 0
    this.permissions.clear()
    this.failures.clear()
    this.graphqlErrors.clear()
    this.issuesOff.clear()
    this.searchLagMs = 0
    this.clockSkewMs = 0
    this.delays.clear()
    this.pulls.clear()
    this.commits.clear()
    this.comparisons.clear()
    this.branches.clear()
    this.hiddenRepos.clear()
    this.renamed.clear()
    this.repositoryIds.clear()
    this.privateRepos.clear()
    this.trees.clear()
    this.texts.clear()
    this.truncatedTrees.clear()
    this.sizes.clear()
    this.issues.clear()
    this.tokenUsers.clear()
    for (const [token, user] of this.identities) this.tokenUsers.set(token, user)
    this.refusedTokens.clear()
    this.readOnlyTokens.clear()
    this.reviewComments.clear()
    // Numbers start again as a fresh fake's do: a test's issue, comment and commit numbers do not
    // depend on the tests before it.
    this.issueCount = FIRST_ISSUE - 1
    this.clockTick = 0
    this.commitCount = 0
    this.nextId = FIRST_COMMENT_ID
  }

  /** A new commit at the tip of `branch` (main by default); its sha is made up. */
  commitTo(repo: string, commit: Omit<FakeCommit, 'sha'>, branch = 'main'): FakeCommit {
    const sha = (++this.commitCount).toString(16).padStart(8, '0').repeat(5)
    const key = `${repo}:${branch}`
    const parent = this.branches.get(key)?.at(-1)
    const made = { ...commit, sha, ...(parent ? { parent } : {}) }
    this.commits.set(sha, made)
    this.branches.set(key, [...(this.branches.get(key) ?? []), sha])
    return made
  }

  /** Merges a pull request into its base: a squash commit titled after it, which GitHub links to it. */
  mergePull(repo: string, pull: FakePull): FakeCommit {
    const commit = this.commitTo(
      repo,
      {
        message: `${pull.title ?? `Change ${pull.number}`} (#${pull.number})`,
        files: pull.files,
        pulls: [pull.number],
        author: { login: pull.user?.login ?? 'alice', bot: pull.user?.type === 'Bot' },
        ...(pull.mergedAt === undefined ? {} : { committedAt: pull.mergedAt })
      },
      pull.base ?? 'main'
    )
    Object.assign(pull, { merged: true, state: 'closed', mergeCommit: commit.sha })
    this.pulls.set(`${repo}#${pull.number}`, pull)
    return commit
  }

  /**
   * Renames a repository as GitHub does: its branches, pull requests and number go with it, and
   * its old name redirects (REST: 301 to `/repositories/:id/…`, 307 for other methods than GET;
   * GraphQL's `repository` follows it unless `followRenames: false`).
   */
  rename(from: string, to: string): void {
    const id = repositoryId(this, from)
    this.repositoryIds.set(to, id)
    this.repositoryIds.delete(from)
    for (const [key, shas] of [...this.branches])
      if (key.startsWith(`${from}:`)) {
        this.branches.delete(key)
        this.branches.set(`${to}:${key.slice(from.length + 1)}`, shas)
      }
    for (const [key, pull] of [...this.pulls])
      if (key.startsWith(`${from}#`)) {
        this.pulls.delete(key)
        this.pulls.set(`${to}#${key.slice(from.length + 1)}`, pull)
      }
    this.renamed.set(from, to)
    this.renamed.delete(to)
  }

  /**
   * A commit pushed to a pull request's branch (a follow-up of the agent, say), as GitHub records
   * it. With the base branch's protection "Dismiss stale pull request approvals when new commits
   * are pushed" (`dismissStale`), every approval turns DISMISSED and the timeline says so.
   */
  pushToPull(repo: string, number: number, commit: FakeTimelineItem, dismissStale = false): void {
    const pull = this.pulls.get(`${repo}#${number}`)
    if (!pull) throw new Error(`no pull request ${repo}#${number}`)
    const timeline = (pull.timeline ??= [])
    timeline.push({ ...commit, kind: 'commit' })
    if (!dismissStale) return
    for (const review of timeline)
      if (review.kind === 'review' && review.state === 'APPROVED') {
        review.state = 'DISMISSED'
        timeline.push({ ...commit, kind: 'review-dismissed', state: 'APPROVED' })
      }
  }

  /** `login` removes a label from a pull request, as GitHub records it (an UnlabeledEvent). */
  unlabel(repo: string, number: number, label: string, login: string, at: number): void {
    const pull = this.pulls.get(`${repo}#${number}`)
    if (!pull) throw new Error(`no pull request ${repo}#${number}`)
    pull.labels = (pull.labels ?? []).filter(l => l.toLowerCase() !== label.toLowerCase())
    ;(pull.timeline ??= []).push({ kind: 'unlabel', login, label, at })
  }

  /** The newest commit of a branch. */
  headOf(repo: string, branch = 'main'): string {
    const shas = this.branches.get(`${repo}:${branch}`) ?? []
    return shas[shas.length - 1] ?? ''
  }

  addPull(repo: string, pull: FakePull): FakePull {
    this.pulls.set(`${repo}#${pull.number}`, pull)
    return pull
  }

  /** The pull request as the REST API (and a webhook payload) shows it. */
  pullView(repo: string, number: number): Record<string, unknown> {
    return pullView(this, repo, number)
  }

  /** Calls `listener` as each request arrives, before any delay or answer (as the simulator's onRequest). */
  onRequest(listener: (request: GitHubRequest) => void): () => void {
    this.requestListeners.push(listener)
    return () => this.requestListeners.splice(this.requestListeners.indexOf(listener), 1)
  }

  /**
   * Resolves with the first request whose `METHOD /path` matches, once it has arrived (at once if
   * one has): a test can act while the answer is held back by `delays`.
   */
  received(pattern: RegExp): Promise<GitHubRequest> {
    const matches = (r: GitHubRequest): boolean => pattern.test(`${r.method} ${r.path}`)
    const seen = this.requests.find(matches)
    if (seen) return Promise.resolve(seen)
    return new Promise(resolve => {
      const stop = this.onRequest(request => {
        if (!matches(request)) return
        stop()
        resolve(request)
      })
    })
  }

  /** The comments on an issue or pull request; with `repo`, only those posted to that repository. */
  commentsOn(issue: number, repo?: string): FakeComment[] {
    return this.comments.filter(c => c.issue === issue && (!repo || c.repo === repo))
  }

  addComment(issue: number, body: string, user: FakeComment['user'], repo?: string): FakeComment {
    const comment = {
      id: this.nextId++,
      issue,
      body,
      user,
      at: this.now(),
      ...(repo ? { repo } : {})
    }
    this.comments.push(comment)
    // As GitHub: a comment on an issue makes it the most recently updated.
    const commented = this.issues.get(issue)
    if (commented && (!repo || repo === 'acme/app')) this.touch(commented)
    for (const listener of [...this.commentListeners]) listener(comment)
    return comment
  }

  /** Resolves with the first comment on `issue` once there is one (at once if there is). */
  commented(issue: number): Promise<FakeComment> {
    const seen = this.commentsOn(issue)[0]
    if (seen) return Promise.resolve(seen)
    return new Promise(resolve => {
      const listener = (comment: FakeComment): void => {
        if (comment.issue !== issue) return
        this.commentListeners.splice(this.commentListeners.indexOf(listener), 1)
        resolve(comment)
      }
      this.commentListeners.push(listener)
    })
  }

  async close(): Promise<void> {
    RUNNING.delete(this.base)
    this.release()
    this.server.closeAllConnections()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  /** Lets go of the answers held back (`delays` of Infinity): they are dropped. */
  private release(): void {
    for (const resolve of this.held.splice(0)) resolve()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://fake')
    const record: GitHubRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      userAgent: req.headers['user-agent'],
      accept: req.headers.accept,
      body: text ? JSON.parse(text) : undefined,
      at: this.now()
    }
    this.requests.push(record)
    for (const listener of [...this.requestListeners]) listener(record)
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      record.status = status
      record.responseBody = body
      // GitHub dates its answers by its own clock: the fake's.
      const date = new Date(this.now()).toUTCString()
      res.writeHead(status, { 'content-type': 'application/json', date, ...headers })
      res.end(JSON.stringify(body))
    }
    /** As GitHub says a page follows: a `link` header to it, and to the last page when known. */
    const linkNext = (lastPage?: number): void => {
      const at = (page: number): string => {
        const link = new URL(req.url ?? '/', this.base.replace(this.prefix, ''))
        link.searchParams.set('page', String(page))
        return link.href
      }
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1)
      const links = [`<${at(page + 1)}>; rel="next"`]
      if (lastPage) links.push(`<${at(lastPage)}>; rel="last"`)
      res.setHeader('link', links.join(', '))
    }
    const graphqlPath = `${this.prefix.replace(/\/v3$/, '')}/graphql`
    // A renamed repository's old name: GitHub's redirect to the repository by its number.
    const old = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(url.pathname.slice(this.prefix.length))
    if (old?.[1] && this.renamed.has(old[1])) {
      const moved = `${this.base}/repositories/${repositoryId(this, currentName(this, old[1]))}${old[2] ?? ''}${url.search}`
      return send(
        req.method === 'GET' || req.method === 'HEAD' ? 301 : 307,
        {
          message: 'Moved Permanently',
          url: moved,
          documentation_url: 'https://docs.github.com/v3/#http-redirects'
        },
        { location: moved }
      )
    }
    const byId = /^\/repositories\/(\d+)(\/.*)?$/.exec(url.pathname.slice(this.prefix.length))
    const named =
      byId &&
      [...this.repositoryIds].find(
        ([name, id]) => id === Number(byId[1]) && !this.renamed.has(name)
      )?.[0]
    if (named) url.pathname = `${this.prefix}/repos/${named}${byId?.[2] ?? ''}`
    if (!url.pathname.startsWith(`${this.prefix}/repos/`) && url.pathname !== graphqlPath)
      return send(404, { message: 'Not Found' })
    const route = url.pathname.slice(this.prefix.length)
    const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const repo = /^\/repos\/([^/]+\/[^/]+)(\/|$)/.exec(route)?.[1]
    if (repo && !canSee(this, repo, token)) return send(404, { message: 'Not Found' })
    const refused = this.refusedTokens.get(token)
    if (refused) return send(refused, { message: 'Bad credentials' })
    if (this.readOnlyTokens.has(token) && req.method !== 'GET' && url.pathname !== graphqlPath)
      return send(403, { message: 'Resource not accessible by personal access token' })
    const user = this.tokenUsers.get(token) ?? { login: this.botLogin, type: 'Bot' as const }
    const failNow = (name: string): boolean => {
      const failure = this.failures.get(name)
      const status = typeof failure === 'number' ? failure : failure?.status
      if (typeof failure === 'object' && --failure.times <= 0) this.failures.delete(name)
      if (status && typeof failure === 'object' && failure.retryAfter !== undefined)
        send(status, SECONDARY_LIMIT, { 'retry-after': String(failure.retryAfter) })
      else if (status && typeof failure === 'object' && failure.rateLimitReset !== undefined)
        send(status, PRIMARY_LIMIT, {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(this.now() / 1000) + failure.rateLimitReset)
        })
      else if (status && typeof failure === 'object' && failure.tooQuickly)
        send(status, TOO_QUICKLY)
      else if (status)
        send(status, {
          message: status === 403 ? 'Resource not accessible by integration' : 'Failure'
        })
      return Boolean(status)
    }
    const fail = async (name: string): Promise<boolean> => {
      const delay = this.delays.get(name)
      if (delay === Infinity) {
        await new Promise<void>(resolve => this.held.push(resolve))
        res.destroy()
        return true
      }
      if (typeof delay === 'object') await delay
      else if (delay) await new Promise(resolve => setTimeout(resolve, delay))
      return failNow(name)
    }
    // GitHub Enterprise Server answers GraphQL at /api/graphql beside its REST API's /api/v3.
    if (url.pathname === graphqlPath && req.method === 'POST') {
      // A pull request's activity fails apart from the rest ('pull-activity'), as the history reads go on.
      const query = (record.body as GraphQLRequest | undefined)?.query ?? ''
      const name = query.includes('timelineItems')
        ? 'pull-activity'
        : /\bsearch\(/.test(query)
          ? 'search'
          : 'graphql'
      if (name === 'search' && (await fail('search'))) return
      if (await fail(name === 'search' ? 'graphql' : name)) return
      const errors = this.graphqlErrors.get(name)
      if (errors) {
        if (--errors.times <= 0) this.graphqlErrors.delete(name)
        const limited = errors.errors.some(e => e.type === 'RATE_LIMITED')
        return send(
          200,
          { data: null, errors: errors.errors },
          limited
            ? {
                'x-ratelimit-limit': '5000',
                'x-ratelimit-remaining': '0',
                'x-ratelimit-reset': String(Math.ceil(this.now() / 1000) + 60)
              }
            : {}
        )
      }
      const viewer = { login: user.login, databaseId: 41898282 }
      // GitHub's search finds an issue or a merge only once indexed: `searchLagMs` after it.
      const indexedBefore = this.searchLagMs ? this.now() - this.searchLagMs : Infinity
      return send(
        200,
        await answerGraphQL(
          this,
          record.body as GraphQLRequest,
          viewer,
          this.issues,
          token,
          indexedBefore
        )
      )
    }
    if (req.method === 'GET') {
      const contents = await contentsRoute(this, route, url, fail, req.headers.accept)
      if (contents === null) return
      if (contents && 'raw' in contents) {
        record.status = contents.status
        res.writeHead(contents.status, {
          'content-type': contents.contentType,
          'content-length': String(contents.raw.length)
        })
        return void res.end(contents.raw)
      }
      if (contents) return send(contents.status, contents.body)
      const answer = await changeRoute(this, route, url, fail, c => this.view(c))
      if (answer === null) return
      if (answer?.more) linkNext()
      if (answer) return send(answer.status, answer.body)
    }
    const issueRoute = await this.issueRoute(req.method ?? '', route, url, record.body, fail, user)
    if (issueRoute === null) return
    if (issueRoute) return send(issueRoute.status, issueRoute.body)
    let m: RegExpExecArray | null
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(route))) {
      const issue = Number(m[1])
      if (req.method === 'GET') {
        if (await fail('list-comments')) return
        const perPage = Number(url.searchParams.get('per_page') ?? 30)
        const page = Number(url.searchParams.get('page') ?? 1)
        const all = this.commentsOn(issue)
        const slice = all.slice((page - 1) * perPage, page * perPage)
        if (page * perPage < all.length) linkNext(Math.ceil(all.length / perPage))
        return send(
          200,
          slice.map(c => this.view(c))
        )
      }
      if (req.method === 'POST') {
        if (await fail('create-comment')) return
        const comment = this.addComment(
          issue,
          (record.body as { body: string }).body,
          user,
          /^\/repos\/([^/]+\/[^/]+)\//.exec(route)?.[1]
        )
        return send(201, this.view(comment))
      }
    }
    if (
      (m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(route)) &&
      req.method === 'GET'
    ) {
      if (await fail('review-comments')) return
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const all = this.reviewComments.get(`${m[1]}#${m[2]}/${m[3]}`) ?? []
      return send(
        200,
        all.slice(0, perPage).map((c, i) => ({
          id: 7000 + i,
          pull_request_review_id: Number(m?.[3]),
          path: c.path,
          body: c.body,
          line: c.line ?? null,
          original_line: c.line ?? null,
          user: { login: c.user ?? 'maintainer', type: 'User' }
        }))
      )
    }
    if ((m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/.exec(route)) && req.method === 'PATCH') {
      if (await fail('update-pull')) return
      const pull = this.pulls.get(`${m[1]}#${m[2]}`)
      if (!pull) return send(404, { message: 'Not Found' })
      const change = (record.body ?? {}) as { state?: unknown; title?: unknown }
      // A merged pull request stays merged: closing it again changes nothing.
      if ((change.state === 'closed' || change.state === 'open') && !pull.merged) {
        pull.state = change.state
        pull.closedAt = change.state === 'closed' ? Date.now() : undefined
      }
      if (typeof change.title === 'string') pull.title = change.title
      return send(200, this.pullView(m[1] as string, pull.number))
    }
    if (
      (m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/requested_reviewers$/.exec(route)) &&
      req.method === 'POST'
    ) {
      if (await fail('request-reviewers')) return
      const pull = this.pulls.get(`${m[1]}#${m[2]}`)
      if (!pull) return send(404, { message: 'Not Found' })
      const reviewers = ((record.body ?? {}) as { reviewers?: unknown }).reviewers
      const logins = Array.isArray(reviewers) ? reviewers.map(String) : []
      // As GitHub: the whole request is refused when one of them is not a collaborator.
      const outsider = logins.find(l => (this.permissions.get(l)?.permission ?? 'none') === 'none')
      if (outsider || logins.includes(pull.user?.login ?? ''))
        return send(422, {
          message:
            'Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the repository.'
        })
      pull.requestedReviewers = [...new Set([...(pull.requestedReviewers ?? []), ...logins])]
      return send(201, this.pullView(m[1] as string, pull.number))
    }
    if (
      (m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(route)) &&
      req.method === 'PATCH'
    ) {
      if (await fail('update-comment')) return
      const comment = this.comments.find(c => c.id === Number(m?.[1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = (record.body as { body: string }).body
      return send(200, this.view(comment))
    }
    if (
      (m = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(route)) &&
      req.method === 'GET'
    ) {
      if (await fail('permission')) return
      const login = decodeURIComponent(m[1] as string)
      const level = this.permissions.get(login)
      if (!level) return send(404, { message: `${login} is not a user` })
      return send(200, { ...level, user: { login } })
    }
    return send(404, { message: 'Not Found' })
  }

  /**
   * An issue of acme/app opened by `user` (a person by default), as through GitHub's page: what a
   * test's people do to the dashboard (open a copy, label it).
   */
  openIssue(over: Partial<FakeIssue> & { title: string; body: string }): FakeIssue {
    const at = this.now()
    const issue: FakeIssue = {
      number: ++this.issueCount,
      state: 'open',
      labels: [],
      user: { login: 'mallory', type: 'User' },
      updatedAt: ++this.clockTick,
      createdAt: at,
      ...over
    }
    this.issues.set(issue.number, issue)
    return issue
  }

  /** A person's edit of an issue's body (a tick, a restore from the edit history), as GitHub records it. */
  editIssue(number: number, body: string, login: string): void {
    const issue = this.issues.get(number)
    if (!issue) throw new Error(`no issue #${number}`)
    issue.body = body
    ;(issue.edits ??= []).push({ by: login, at: this.now() })
    this.touch(issue)
  }

  /** The issue was updated now: first in the order of updates, its `updated_at` GitHub's now. */
  private touch(issue: FakeIssue): void {
    issue.updatedAt = ++this.clockTick
    issue.touchedAt = this.now()
  }

  /** The issues routes the dashboard uses: list by label, create, update. */
  private async issueRoute(
    method: string,
    route: string,
    url: URL,
    body: unknown,
    fail: (name: string) => Promise<boolean>,
    user: FakeComment['user'] = { login: this.botLogin, type: 'Bot' }
  ): Promise<{ status: number; body: unknown } | null | undefined> {
    const changes = (body ?? {}) as Partial<FakeIssue> & { labels?: string[] }
    const repo = /^\/repos\/([^/]+\/[^/]+)\//.exec(route)?.[1] ?? 'acme/app'
    // Issues turned off: creating, reading or editing an issue answers 410, as GitHub documents.
    if (this.issuesOff.has(repo) && /^\/repos\/[^/]+\/[^/]+\/issues(\/\d+)?$/.test(route))
      if (!(method === 'GET' && /\/issues$/.test(route))) return { status: 410, body: ISSUES_OFF }
    if (/^\/repos\/[^/]+\/[^/]+\/issues$/.test(route)) {
      if (method === 'GET') {
        if (await fail('list-issues')) return null
        const label = url.searchParams.get('labels')
        const state = url.searchParams.get('state') ?? 'open'
        const found = [...this.issues.values()]
          .filter(
            i => (!label || i.labels.includes(label)) && (state === 'all' || i.state === state)
          )
          .sort((a, b) => b.updatedAt - a.updatedAt)
          .slice(0, Number(url.searchParams.get('per_page') ?? 30))
        return { status: 200, body: found.map(i => this.issueView(i, repo)) }
      }
      if (method === 'POST') {
        if (await fail('create-issue')) return null
        if (tooLong(changes.body)) return tooLong(changes.body)
        const issue: FakeIssue = {
          number: ++this.issueCount,
          title: changes.title ?? '',
          body: changes.body ?? '',
          state: 'open',
          labels: changes.labels ?? [],
          user,
          updatedAt: ++this.clockTick,
          createdAt: this.now()
        }
        this.issues.set(issue.number, issue)
        return { status: 201, body: this.issueView(issue, repo) }
      }
    }
    const m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/.exec(route)
    if (m && (method === 'PATCH' || method === 'GET')) {
      if (await fail(method === 'GET' ? 'get-issue' : 'update-issue')) return null
      const issue = this.issues.get(Number(m[1]))
      if (!issue) return { status: 404, body: { message: 'Not Found' } }
      if (method === 'PATCH') {
        if (tooLong(changes.body)) return tooLong(changes.body)
        if (typeof changes.title === 'string') issue.title = changes.title
        if (typeof changes.body === 'string' && changes.body !== issue.body) {
          issue.body = changes.body
          ;(issue.edits ??= []).push({ by: user.login, at: this.now() })
        }
        if (changes.state === 'open' || changes.state === 'closed') issue.state = changes.state
        if (Array.isArray(changes.labels)) issue.labels = changes.labels.map(String)
        this.touch(issue)
      }
      return { status: 200, body: this.issueView(issue, repo) }
    }
    return undefined
  }

  /** An issue as GitHub's REST API shows it. */
  issueView(issue: FakeIssue, repo = 'acme/app'): Record<string, unknown> {
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

  view(c: FakeComment): Record<string, unknown> {
    return {
      id: c.id,
      body: c.body,
      user: c.user,
      html_url: `https://github.com/acme/docs/issues/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${this.base}/repos/acme/docs/issues/${c.issue}`
    }
  }
}

/** GitHub's answer to an issue body over its 65,536 characters: 422, nothing written. */
function tooLong(body: unknown): { status: number; body: unknown } | undefined {
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
const MAX_ISSUE_BODY = 65_536
