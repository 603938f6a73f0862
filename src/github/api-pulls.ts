import { type PullRequestRef, parsePullRequest } from './event.js'
import { PAGE_SIZE, type RepoRest, notFound } from './rest.js'
import { parseWithoutPatches } from './without-patches.js'

/** The run's repository's pull requests and commits, as GitHubApi offers them. */
export interface PullCalls {
  pull(pull: number): Promise<PullRequestRef>
  /** Closes a pull request without merging it; answers with the pull request as it now is. */
  closePull(pull: number): Promise<PullRequestRef>
  /** Requests reviews on a pull request from these people (each with access to the repository). */
  requestReviewers(pull: number, reviewers: string[]): Promise<void>
  /** One page of a commit's files, with their patches. */
  commitFiles(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** One page of a commit's files without their patches, which are dropped as the answer streams in. */
  commitPaths(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** A pull request's files with their patches, a page at a time: the next page is read only when asked for. */
  pullFilePages(pull: number, perPage: number): AsyncIterable<ChangedFile[]>
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

/** A page of a commit's files without patches, kept at most: 100 entries and a long message fit many times over. */
const MAX_COMMIT_BYTES = 8 << 20

export function pullCalls({ octokit, ...repository }: RepoRest): PullCalls {
  // GitHub pages a commit's files by `page` and `per_page`; the commit's own fields repeat.
  const commitPage = (
    sha: string,
    page: number,
    perPage: number,
    request: { parseSuccessResponseBody?: boolean }
  ) => octokit.rest.repos.getCommit({ ...repository, ref: sha, page, per_page: perPage, request })
  return {
    async pull(number) {
      const { data } = await octokit.rest.pulls.get({ ...repository, pull_number: number })
      return pullOf(number, data)
    },
    async closePull(number) {
      const { data } = await octokit.rest.pulls.update({
        ...repository,
        pull_number: number,
        state: 'closed'
      })
      return pullOf(number, data)
    },
    async requestReviewers(number, reviewers) {
      await octokit.rest.pulls.requestReviewers({ ...repository, pull_number: number, reviewers })
    },
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
        ...repository,
        pull_number: pull,
        per_page: perPage
      })
      for await (const { data } of pages) yield asFiles(data)
    },
    async reviewComments(pull, review) {
      const { data } = await octokit.rest.pulls.listCommentsForReview({
        ...repository,
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
    async compareStatus(base, head) {
      try {
        // One commit a page: only the status is read, not the range.
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
          ...repository,
          basehead: `${base}...${head}`,
          per_page: 1
        })
        return typeof data.status === 'string' ? data.status : 'missing'
      } catch (error) {
        if (notFound(error)) return 'missing'
        throw error
      }
    }
  }
}

/** GitHub's answer about pull request `number` (read or just closed), checked. */
function pullOf(number: number, data: unknown): PullRequestRef {
  const pr = parsePullRequest(data)
  if (!pr) throw new Error(`GitHub answered pull request #${number} without a number`)
  return pr
}

/** An inline comment's line: `line`, or the older `original_line`, when a positive integer. */
function lineOf(c: { line?: unknown; original_line?: unknown }): { line?: number } {
  const line = [c.line, c.original_line].find(n => Number.isSafeInteger(n) && (n as number) > 0)
  return line === undefined ? {} : { line: line as number }
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
