import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeComment {
  id: number
  issue: number
  body: string
  user: { login: string; type: 'Bot' | 'User' }
}

export interface GitHubRequest {
  method: string
  path: string
  query: Record<string, string>
  authorization?: string
  userAgent?: string
  body?: unknown
  /** The answer, for checking against GitHub's OpenAPI description. */
  status?: number
  responseBody?: unknown
}

/** A changed file as GitHub's files, compare and commit endpoints list it. */
export interface FakeFile {
  filename: string
  status?: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged'
  additions?: number
  deletions?: number
  patch?: string
  previous_filename?: string
}

/** A pull request in any repository of the fake, with its files. */
export interface FakePull {
  number: number
  title?: string
  body?: string
  state?: 'open' | 'closed'
  merged?: boolean
  user?: { login: string; type: 'Bot' | 'User' }
  labels?: string[]
  base?: string
  files?: FakeFile[]
}

export interface FakeCommit {
  sha: string
  message: string
  files?: FakeFile[]
  /** Pull requests (of the repository asked about) the commit belongs to. */
  pulls?: number[]
}

/**
 * A loopback stand-in for the few GitHub REST routes the action uses: issue comments (list, create,
 * update) and collaborator permission. Optionally served under a prefix, as GitHub Enterprise Server's
 * `/api/v3` is.
 */
export class FakeGitHub {
  readonly requests: GitHubRequest[] = []
  readonly comments: FakeComment[] = []
  /** Permission answers by login: GitHub's `permission` and `role_name`. */
  readonly permissions = new Map<string, { permission: string; role_name: string }>()
  /**
   * Status to answer instead, by route name: 'create-comment', 'update-comment', 'list-comments',
   * 'permission', 'repo-comments', 'pull-files', 'pull', 'compare', 'commit', 'commit-pulls'.
   */
  readonly failures = new Map<string, number>()
  /** Pull requests by `owner/repo#number`. */
  readonly pulls = new Map<string, FakePull>()
  readonly commits = new Map<string, FakeCommit>()
  /** Comparisons by `base...head`: the commits between, oldest first. */
  readonly comparisons = new Map<string, FakeCommit[]>()
  private server: Server
  private base = ''
  private nextId = 1000

  private constructor(
    private readonly prefix: string,
    readonly botLogin: string
  ) {
    this.server = createServer((req, res) => void this.handle(req, res))
  }

  static async start(options: { prefix?: string; botLogin?: string } = {}): Promise<FakeGitHub> {
    const fake = new FakeGitHub(options.prefix ?? '', options.botLogin ?? 'github-actions[bot]')
    await new Promise<void>(resolve => fake.server.listen(0, '127.0.0.1', resolve))
    fake.base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}${fake.prefix}`
    return fake
  }

  /** The value for GITHUB_API_URL. */
  get url(): string {
    return this.base
  }

  reset(): void {
    this.requests.length = 0
    this.comments.length = 0
    this.permissions.clear()
    this.failures.clear()
    this.pulls.clear()
    this.commits.clear()
    this.comparisons.clear()
  }

  addPull(repo: string, pull: FakePull): FakePull {
    this.pulls.set(`${repo}#${pull.number}`, pull)
    return pull
  }

  /** The pull request as the REST API (and a webhook payload) shows it. */
  pullView(repo: string, number: number): Record<string, unknown> {
    const pull = this.pulls.get(`${repo}#${number}`)
    if (!pull) throw new Error(`no pull request ${repo}#${number}`)
    const files = pull.files ?? []
    return {
      number: pull.number,
      html_url: `https://github.com/${repo}/pull/${pull.number}`,
      state: pull.state ?? 'closed',
      title: pull.title ?? `Change ${pull.number}`,
      body: pull.body ?? null,
      user: pull.user ?? { login: 'alice', type: 'User' },
      labels: (pull.labels ?? []).map((name, i) => ({ id: i + 1, name })),
      base: { ref: pull.base ?? 'main' },
      merged: pull.merged ?? pull.state !== 'open',
      merged_at: (pull.merged ?? pull.state !== 'open') ? '2026-11-20T10:00:00Z' : null,
      changed_files: files.length,
      additions: files.reduce((n, f) => n + (f.additions ?? 1), 0),
      deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0)
    }
  }

  commentsOn(issue: number): FakeComment[] {
    return this.comments.filter(c => c.issue === issue)
  }

  addComment(issue: number, body: string, user: FakeComment['user']): FakeComment {
    const comment = { id: this.nextId++, issue, body, user }
    this.comments.push(comment)
    return comment
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
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
      body: text ? JSON.parse(text) : undefined
    }
    this.requests.push(record)
    const send = (status: number, body: unknown): void => {
      record.status = status
      record.responseBody = body
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (!url.pathname.startsWith(`${this.prefix}/repos/`))
      return send(404, { message: 'Not Found' })
    const route = url.pathname.slice(this.prefix.length)
    const fail = (name: string): boolean => {
      const status = this.failures.get(name)
      if (status)
        send(status, {
          message: status === 403 ? 'Resource not accessible by integration' : 'Failure'
        })
      return Boolean(status)
    }
    if (req.method === 'GET') {
      const answer = this.changeRoute(route, url, fail)
      if (answer === null) return
      if (answer) return send(answer.status, answer.body)
    }
    let m: RegExpExecArray | null
    if ((m = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(route))) {
      const issue = Number(m[1])
      if (req.method === 'GET') {
        if (fail('list-comments')) return
        const perPage = Number(url.searchParams.get('per_page') ?? 30)
        const page = Number(url.searchParams.get('page') ?? 1)
        const all = this.commentsOn(issue)
        const slice = all.slice((page - 1) * perPage, page * perPage)
        if (page * perPage < all.length) {
          const next = new URL(req.url ?? '/', this.base.replace(this.prefix, ''))
          next.searchParams.set('page', String(page + 1))
          res.setHeader('link', `<${next.href}>; rel="next"`)
        }
        return send(
          200,
          slice.map(c => this.view(c))
        )
      }
      if (req.method === 'POST') {
        if (fail('create-comment')) return
        const comment = this.addComment(issue, (record.body as { body: string }).body, {
          login: this.botLogin,
          type: 'Bot'
        })
        return send(201, this.view(comment))
      }
    }
    if (
      (m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(route)) &&
      req.method === 'PATCH'
    ) {
      if (fail('update-comment')) return
      const comment = this.comments.find(c => c.id === Number(m?.[1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = (record.body as { body: string }).body
      return send(200, this.view(comment))
    }
    if (
      (m = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(route)) &&
      req.method === 'GET'
    ) {
      if (fail('permission')) return
      const login = decodeURIComponent(m[1] as string)
      const level = this.permissions.get(login)
      if (!level) return send(404, { message: `${login} is not a user` })
      return send(200, { ...level, user: { login } })
    }
    return send(404, { message: 'Not Found' })
  }

  private view(c: FakeComment): Record<string, unknown> {
    return {
      id: c.id,
      body: c.body,
      user: c.user,
      html_url: `https://github.com/acme/docs/issues/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${this.base}/repos/acme/docs/issues/${c.issue}`
    }
  }

  /**
   * The read-only routes of code changes. An answer, `null` when a failure was sent, or undefined
   * when the route is not one of them.
   */
  private changeRoute(
    route: string,
    url: URL,
    fail: (name: string) => boolean
  ): { status: number; body: unknown } | null | undefined {
    const page = Number(url.searchParams.get('page') ?? 1)
    const perPage = Number(url.searchParams.get('per_page') ?? 30)
    const paged = <T>(all: T[]): T[] => all.slice((page - 1) * perPage, page * perPage)
    const notFound = { status: 404, body: { message: 'Not Found' } }
    let m: RegExpExecArray | null
    if (/^\/repos\/[^/]+\/[^/]+\/issues\/comments$/.test(route)) {
      if (fail('repo-comments')) return null
      const newestFirst = url.searchParams.get('direction') === 'desc'
      const all = newestFirst ? [...this.comments].reverse() : this.comments
      return { status: 200, body: paged(all).map(c => this.view(c)) }
    }
    if ((m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)(\/files)?$/.exec(route))) {
      if (fail(m[3] ? 'pull-files' : 'pull')) return null
      const pull = this.pulls.get(`${m[1]}#${m[2]}`)
      if (!pull) return notFound
      if (!m[3]) return { status: 200, body: this.pullView(m[1] as string, pull.number) }
      return { status: 200, body: paged(pull.files ?? []).map(fileView) }
    }
    if ((m = /^\/repos\/([^/]+\/[^/]+)\/commits\/([0-9a-f]+)(\/pulls)?$/.exec(route))) {
      if (fail(m[3] ? 'commit-pulls' : 'commit')) return null
      const commit = this.commits.get(m[2] as string)
      if (!commit) return { status: 422, body: { message: 'No commit found for SHA' } }
      if (m[3])
        return {
          status: 200,
          body: (commit.pulls ?? []).map(n => this.pullView(m?.[1] as string, n))
        }
      return {
        status: 200,
        body: { ...commitView(commit), files: (commit.files ?? []).map(fileView) }
      }
    }
    if ((m = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([0-9a-f]+\.\.\.[0-9a-f]+)$/.exec(route))) {
      if (fail('compare')) return null
      const commits = this.comparisons.get(m[3] as string)
      if (!commits) return notFound
      const files = commits.flatMap(c => c.files ?? [])
      return {
        status: 200,
        body: {
          html_url: `https://github.com/${m[1]}/${m[2]}/compare/${m[3]}`,
          status: 'ahead',
          ahead_by: commits.length,
          behind_by: 0,
          total_commits: commits.length,
          commits: commits.map(commitView),
          files: files.slice(0, 300).map(fileView)
        }
      }
    }
    return undefined
  }
}

function fileView(f: FakeFile): Record<string, unknown> {
  const additions = f.additions ?? 1
  const deletions = f.deletions ?? 0
  return {
    sha: 'f'.repeat(40),
    filename: f.filename,
    status: f.status ?? 'modified',
    additions,
    deletions,
    changes: additions + deletions,
    ...(f.patch === undefined ? {} : { patch: f.patch }),
    ...(f.previous_filename ? { previous_filename: f.previous_filename } : {})
  }
}

function commitView(c: FakeCommit): Record<string, unknown> {
  return {
    sha: c.sha,
    html_url: `https://github.com/acme/app/commit/${c.sha}`,
    commit: { message: c.message }
  }
}
