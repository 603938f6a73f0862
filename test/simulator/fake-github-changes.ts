import type { FakeComment } from './fake-github-issues.js'

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
  /** The commit that merged it into its base, once merged (FakeGitHub.mergePull). */
  mergeCommit?: string
  /** When it was opened, merged and closed (epoch ms); fixed times of 2026-11-20 otherwise. */
  createdAt?: number
  mergedAt?: number
  closedAt?: number
  /** When it last changed (a label, a comment): its latest time above otherwise. */
  updatedAt?: number
  /** Logins asked to review (POST requested_reviewers). */
  requestedReviewers?: string[]
  /** Opened as a draft. */
  draft?: boolean
  /** Its commits, reviews and labels, oldest first, for GraphQL's timelineItems (comments come from the fake's comments). */
  timeline?: FakeTimelineItem[]
}

/** A commit, force-push, review, label added or removed, or review dismissed on a pull request's timeline. */
export interface FakeTimelineItem {
  kind: 'commit' | 'force-push' | 'review' | 'label' | 'unlabel' | 'review-dismissed'
  /** When (epoch ms). */
  at: number
  /** Who: for a commit, the account its git email matches (none: a git author GitHub does not know). */
  login?: string
  bot?: boolean
  /** A commit's git email; made up from the login otherwise. */
  email?: string
  state?: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED'
  label?: string
  /** A commit's committer, when not its author (a rebase, a squash, a commit authored as another). */
  committer?: { login?: string; email?: string; bot?: boolean }
}

/** An inline comment of a review, as the review comments route lists it. */
export interface FakeReviewComment {
  path: string
  line?: number
  body: string
  user?: string
}

export interface FakeCommit {
  sha: string
  message: string
  /**
   * The commit it was made on (FakeGitHub.commitTo): its history stays when no branch holds it any
   * longer. Without it, its parent is the commit before it on the branch that holds it.
   */
  parent?: string
  files?: FakeFile[]
  /** Pull requests (of the repository asked about) the commit belongs to. */
  pulls?: number[]
  /** Who wrote it: a GitHub login when GitHub knows the account, a bot's name otherwise. */
  author?: { login?: string; name?: string; bot?: boolean }
  /** When it was committed (epoch ms); 2026-11-20T10:00:00Z otherwise. */
  committedAt?: number
}

/** What the fake GitHub knows of code changes. */
export interface ChangeStore {
  comments: FakeComment[]
  pulls: Map<string, FakePull>
  commits: Map<string, FakeCommit>
  comparisons: Map<string, FakeCommit[]>
  /** Each branch's commits, oldest first, by `owner/repo:branch`. */
  branches: Map<string, string[]>
  /** Repositories (`owner/repo`) no token may see: GitHub answers as if they did not exist. */
  hiddenRepos: Set<string>
  /** Private repositories (`owner/repo`): only the tokens listed may see them. */
  privateRepos: Map<string, ReadonlySet<string>>
  /** Repositories renamed: the old `owner/repo` to the new, as GitHub redirects them. */
  renamed: Map<string, string>
  /** Each repository's number (GitHub's `id`, `databaseId`): it stays through a rename. */
  repositoryIds: Map<string, number>
  /** A review's inline comments, by `owner/repo#pull/review`. */
  reviewComments: Map<string, FakeReviewComment[]>
}

/** The name a repository has now: GitHub follows a renamed repository's old name to it. */
export function currentName(store: Pick<ChangeStore, 'renamed'>, repo: string): string {
  let name = repo
  for (let hops = 0; hops < 10 && store.renamed.has(name); hops++)
    name = store.renamed.get(name) as string
  return name
}

/** A repository's number, given once and kept through renames. */
export function repositoryId(store: Pick<ChangeStore, 'repositoryIds'>, repo: string): number {
  let id = store.repositoryIds.get(repo)
  if (id === undefined) {
    id = 700_000 + store.repositoryIds.size
    store.repositoryIds.set(repo, id)
  }
  return id
}

/** A repository's GraphQL node id, as GitHub shapes it (`R_kgDO…`), from its number. */
export const repositoryNodeId = (id: number): string =>
  `R_kgDO${Buffer.from(String(id)).toString('base64url')}`

/**
 * A commit and its ancestors, oldest first, as git holds them: each commit's parent is the one it
 * was made on, or the one before it on the branch that holds it (a history a test wrote out). A
 * commit that no branch holds any longer (a branch reset or force-pushed past it) keeps its
 * history, as on GitHub. Empty for a commit the fake does not know.
 */
export function ancestry(store: ChangeStore, repo: string, sha: string): string[] {
  const line: string[] = []
  const seen = new Set<string>()
  for (let at: string | undefined = sha; at && store.commits.has(at) && !seen.has(at);) {
    seen.add(at)
    line.push(at)
    at = store.commits.get(at)?.parent ?? before(store, repo, at)
  }
  return line.reverse()
}

/** The commit before `sha` on the branch of `repo` that holds it. */
function before(store: ChangeStore, repo: string, sha: string): string | undefined {
  for (const [key, shas] of store.branches) {
    const at = key.startsWith(`${repo}:`) ? shas.indexOf(sha) : -1
    if (at >= 0) return shas[at - 1]
  }
  return undefined
}

/**
 * A comparison of two commits, as GitHub answers it from their histories: `ahead` when base is in
 * head's history, `behind` the other way, `diverged` when neither is, whether or not a branch still
 * holds them; 404 for an unknown commit.
 */
function compareBranch(
  store: ChangeStore,
  repo: string,
  basehead: string
): { status: number; body: unknown } {
  const [base = '', head = ''] = basehead.split('...')
  const headHistory = ancestry(store, repo, head)
  const baseHistory = ancestry(store, repo, base)
  if (!headHistory.length || !baseHistory.length)
    return { status: 404, body: { message: 'Not Found' } }
  const aheadBy = headHistory.filter(s => !baseHistory.includes(s)).length
  const behindBy = baseHistory.filter(s => !headHistory.includes(s)).length
  const status =
    aheadBy === 0 && behindBy === 0
      ? 'identical'
      : behindBy === 0
        ? 'ahead'
        : aheadBy === 0
          ? 'behind'
          : 'diverged'
  return {
    status: 200,
    body: {
      html_url: `https://github.com/${repo}/compare/${basehead}`,
      status,
      ahead_by: aheadBy,
      behind_by: behindBy,
      total_commits: aheadBy,
      commits: [],
      files: []
    }
  }
}

/** Whether a token may see a repository of the fake. */
export const canSee = (store: ChangeStore, repo: string, token: string): boolean =>
  !store.hiddenRepos.has(repo) && (store.privateRepos.get(repo)?.has(token) ?? true)

/** The pull request as the REST API (and a webhook payload) shows it. */
export function pullView(
  store: ChangeStore,
  repo: string,
  number: number
): Record<string, unknown> {
  const pull = store.pulls.get(`${repo}#${number}`)
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
    draft: pull.draft ?? false,
    created_at: iso(pull.createdAt) ?? '2026-11-20T09:00:00Z',
    merged_at:
      (pull.merged ?? pull.state !== 'open')
        ? (iso(pull.mergedAt) ?? '2026-11-20T10:00:00Z')
        : null,
    closed_at:
      (pull.state ?? 'closed') === 'closed'
        ? (iso(pull.closedAt ?? pull.mergedAt) ?? '2026-11-20T10:00:00Z')
        : null,
    changed_files: files.length,
    additions: files.reduce((n, f) => n + (f.additions ?? 1), 0),
    deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0)
  }
}

/**
 * The read-only routes of code changes. An answer (`more` when a page follows it: GitHub then
 * sends a `link` header to it), `null` when a failure was sent, or undefined when the route is not
 * one of them. `fail` waits out the route's delay, then sends its failure.
 */
export async function changeRoute(
  store: ChangeStore,
  route: string,
  url: URL,
  fail: (name: string) => Promise<boolean>,
  view: (c: FakeComment) => Record<string, unknown>
): Promise<{ status: number; body: unknown; more?: boolean } | null | undefined> {
  const page = Number(url.searchParams.get('page') ?? 1)
  const perPage = Number(url.searchParams.get('per_page') ?? 30)
  const paged = <T, U>(all: T[], view: (item: T) => U) => ({
    status: 200,
    body: all.slice((page - 1) * perPage, page * perPage).map(view),
    more: page * perPage < all.length
  })
  const notFound = { status: 404, body: { message: 'Not Found' } }
  let m: RegExpExecArray | null
  if (/^\/repos\/[^/]+\/[^/]+\/issues\/comments$/.test(route)) {
    if (await fail('repo-comments')) return null
    const newestFirst = url.searchParams.get('direction') === 'desc'
    const all = newestFirst ? [...store.comments].reverse() : store.comments
    return paged(all, view)
  }
  if ((m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)(\/files)?$/.exec(route))) {
    if (await fail(m[3] ? 'pull-files' : 'pull')) return null
    const pull = store.pulls.get(`${m[1]}#${m[2]}`)
    if (!pull) return notFound
    if (!m[3]) return { status: 200, body: pullView(store, m[1] as string, pull.number) }
    return paged(pull.files ?? [], fileView)
  }
  if ((m = /^\/repos\/([^/]+\/[^/]+)\/commits\/([0-9a-f]+)(\/pulls)?$/.exec(route))) {
    if (await fail(m[3] ? 'commit-pulls' : 'commit')) return null
    const commit = store.commits.get(m[2] as string)
    if (!commit) return { status: 422, body: { message: 'No commit found for SHA' } }
    if (m[3])
      return {
        status: 200,
        body: (commit.pulls ?? []).map(n => pullView(store, m?.[1] as string, n))
      }
    // GitHub pages a commit's files when asked to (page, per_page); the commit's fields repeat.
    const files = commit.files ?? []
    const paging = url.searchParams.has('per_page') || url.searchParams.has('page')
    const shown = paging ? files.slice((page - 1) * perPage, page * perPage) : files
    return {
      status: 200,
      body: { ...commitView(commit), files: shown.map(fileView) },
      more: paging && page * perPage < files.length
    }
  }
  if ((m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(route))) {
    if (await fail('review-comments')) return null
    const all = store.reviewComments.get(`${m[1]}#${m[2]}/${m[3]}`) ?? []
    return {
      status: 200,
      body: all.slice(0, perPage).map((c, i) => ({
        id: 7000 + i,
        pull_request_review_id: Number(m?.[3]),
        path: c.path,
        body: c.body,
        line: c.line ?? null,
        original_line: c.line ?? null,
        user: { login: c.user ?? 'maintainer', type: 'User' }
      }))
    }
  }
  if ((m = /^\/repos\/([^/]+)\/([^/]+)\/compare\/([0-9a-f]+\.\.\.[0-9a-f]+)$/.exec(route))) {
    if (await fail('compare')) return null
    const commits = store.comparisons.get(m[3] as string)
    if (!commits) return compareBranch(store, `${m[1]}/${m[2]}`, m[3] as string)
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

export const iso = (ms?: number): string | undefined =>
  ms === undefined ? undefined : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

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
