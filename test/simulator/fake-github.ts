import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type FakeCommit,
  type FakePull,
  type FakeReviewComment,
  type FakeTimelineItem,
  canSee,
  changeRoute,
  pullView
} from './fake-github-changes.js'
import { type GraphQLRequest, answerGraphQL } from './fake-github-graphql.js'
import { contentsRoute } from './fake-github-contents.js'
import {
  type FakeFailure,
  type FakeGraphQLErrors,
  type FailureAnswer,
  failureAnswer,
  graphqlErrorsAnswer
} from './fake-github-failures.js'
import {
  type FakeComment,
  type FakeIssue,
  commentView,
  editIssue,
  issueRoute,
  issueView,
  openIssue,
  touch
} from './fake-github-issues.js'
import {
  commitTo,
  followRename,
  mergePull,
  pullWriteRoute,
  pushToPull,
  rename,
  unlabel
} from './fake-github-history.js'

export type {
  FakeCommit,
  FakeFile,
  FakePull,
  FakeReviewComment,
  FakeTimelineItem
} from './fake-github-changes.js'
export type { FakeComment, FakeIssue } from './fake-github-issues.js'
export type { FakeFailure, FakeGraphQLErrors } from './fake-github-failures.js'

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

/** The fake GitHubs of this process, by their URL: test helpers find a run's from its GITHUB_API_URL. */
const RUNNING = new Map<string, FakeGitHub>()

/** The number of the first issue the fake creates (comments' issues are numbered by the tests). */
const FIRST_ISSUE = 501
/** The id of the first comment the fake writes. */
const FIRST_COMMENT_ID = 1000

/** The numbers a fresh fake gives last: its first issue, comment and commit are the ones after. */
const firstNumbers = (): { issue: number; tick: number; commit: number; comment: number } => ({
  issue: FIRST_ISSUE - 1,
  tick: 0,
  commit: 0,
  comment: FIRST_COMMENT_ID - 1
})

/**
 * A loopback stand-in for the GitHub REST and GraphQL routes the action uses: issues and their
 * comments (fake-github-issues.ts), collaborator permission, code changes and pull requests
 * (fake-github-changes.ts, fake-github-history.ts), repositories' contents
 * (fake-github-contents.ts), GraphQL (fake-github-graphql.ts), and the failures a test asks for
 * (fake-github-failures.ts). Optionally served under a prefix, as GitHub Enterprise Server's
 * `/api/v3` is.
 */
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
  /**
   * The numbers given last: to an issue, to an issue's update (their order), to a commit (its sha)
   * and to a comment (its id).
   */
  readonly numbers = firstNumbers()
  private readonly requestListeners: ((request: GitHubRequest) => void)[] = []
  private readonly commentListeners: ((comment: FakeComment) => void)[] = []
  private server: Server
  private base = ''
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
    Object.assign(this.numbers, firstNumbers())
  }

  /** A new commit at the tip of `branch` (main by default); its sha is made up. */
  commitTo(repo: string, commit: Omit<FakeCommit, 'sha'>, branch = 'main'): FakeCommit {
    return commitTo(this, repo, commit, branch)
  }

  /** Merges a pull request into its base: a squash commit titled after it, which GitHub links to it. */
  mergePull(repo: string, pull: FakePull): FakeCommit {
    return mergePull(this, repo, pull)
  }

  /** Renames a repository as GitHub does (fake-github-history.ts): its old name redirects. */
  rename(from: string, to: string): void {
    rename(this, from, to)
  }

  /** A commit pushed to a pull request's branch; `dismissStale` dismisses its approvals. */
  pushToPull(repo: string, number: number, commit: FakeTimelineItem, dismissStale = false): void {
    pushToPull(this, repo, number, commit, dismissStale)
  }

  /** `login` removes a label from a pull request, as GitHub records it (an UnlabeledEvent). */
  unlabel(repo: string, number: number, label: string, login: string, at: number): void {
    unlabel(this, repo, number, label, login, at)
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
      id: ++this.numbers.comment,
      issue,
      body,
      user,
      at: this.now(),
      ...(repo ? { repo } : {})
    }
    this.comments.push(comment)
    // As GitHub: a comment on an issue makes it the most recently updated.
    const commented = this.issues.get(issue)
    if (commented && (!repo || repo === 'acme/app')) touch(this, commented)
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
    const renamed = followRename(this, url.pathname.slice(this.prefix.length))
    if ('moved' in renamed) {
      const moved = `${this.base}${renamed.moved}${url.search}`
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
    // Only a path under the REST prefix is a repository's (GraphQL's is beside it on GHES).
    if (url.pathname.startsWith(`${this.prefix}/`)) url.pathname = `${this.prefix}${renamed.route}`
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
    const answer = (a: FailureAnswer | undefined): boolean => {
      if (a) send(a.status, a.body, a.headers)
      return Boolean(a)
    }
    const failNow = (name: string): boolean =>
      answer(failureAnswer(this.failures, name, this.now()))
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
      if (answer(graphqlErrorsAnswer(this.graphqlErrors, name, this.now()))) return
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
      const change = await changeRoute(this, route, url, fail, c => this.view(c))
      if (change === null) return
      if (change?.more) linkNext()
      if (change) return send(change.status, change.body)
    }
    const method = req.method ?? ''
    const issues = await issueRoute(this, method, route, url, record.body, fail, user)
    if (issues === null) return
    if (issues?.lastPage) linkNext(issues.lastPage)
    if (issues) return send(issues.status, issues.body)
    const pull = await pullWriteRoute(this, method, route, record.body, fail)
    if (pull === null) return
    if (pull) return send(pull.status, pull.body)
    let m: RegExpExecArray | null
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
    return openIssue(this, over)
  }

  /** A person's edit of an issue's body (a tick, a restore from the edit history), as GitHub records it. */
  editIssue(number: number, body: string, login: string): void {
    editIssue(this, number, body, login)
  }

  /** An issue as GitHub's REST API shows it. */
  issueView(issue: FakeIssue, repo = 'acme/app'): Record<string, unknown> {
    return issueView(issue, repo)
  }

  /** A comment as GitHub's REST API shows it. */
  view(c: FakeComment): Record<string, unknown> {
    return commentView(c, this.base)
  }
}
