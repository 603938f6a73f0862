import { EACH_ATTEMPT } from './each-attempt.js'
import { PAGE_SIZE, type RepoRest } from './rest.js'

/** The run's repository's issues and their comments, as GitHubApi offers them. */
export interface IssueCalls {
  listComments(issue: number): Promise<IssueComment[]>
  createComment(issue: number, body: string): Promise<number>
  updateComment(id: number, body: string): Promise<void>
  /** Open and closed issues (not pull requests) with this label, most recently updated first. */
  issuesWithLabel(label: string): Promise<IssueRecord[]>
  createIssue(title: string, body: string, labels: string[]): Promise<IssueRecord>
  /** One issue as it stands: a read, no write. */
  getIssue(number: number): Promise<IssueRecord>
  /**
   * Changes an issue. Given a function, the change is made anew for each attempt as it is sent (a
   * retry after a rate limit's wait, or after GitHub failed): a body that names when it was written
   * says when it reached GitHub.
   */
  updateIssue(number: number, change: IssueChange | (() => IssueChange)): Promise<IssueRecord>
}

export interface IssueChange {
  title?: string
  body?: string
  state?: 'open' | 'closed'
  labels?: string[]
}

/** An issue as the action reads it: its text, and where it is. */
export interface IssueRecord {
  number: number
  title: string
  body: string
  state: string
  url: string
  labels: string[]
  /** Its `updated_at`, on GitHub's clock (epoch ms, whole seconds): after a write, that write's time. */
  updatedAt?: number
  /** When GitHub answered, on its own clock (the answer's `date`, whole seconds). */
  answeredAt?: number
}

export interface IssueComment {
  id: number
  body: string
  authorType: string
  /** The author's login: who wrote the comment. */
  author: string
}

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

export function issueCalls({ octokit, ...repository }: RepoRest): IssueCalls {
  return {
    async listComments(issue) {
      // GitHub lists an issue's comments oldest first. What the action looks for is near either
      // end (its own comment early, the newest records late), so it reads the first page and, from
      // the last page GitHub names, backwards: COMMENT_PAGES requests at most, however long the thread.
      const page = (n: number) =>
        octokit.rest.issues.listComments({
          ...repository,
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
        ...repository,
        issue_number: issue,
        body,
        // Never retried: GitHub may have posted the comment before failing to say so.
        request: { retries: 0 }
      })
      return data.id
    },
    async updateComment(id, body) {
      await octokit.rest.issues.updateComment({ ...repository, comment_id: id, body })
    },
    async issuesWithLabel(label) {
      const { data, headers } = await octokit.rest.issues.listForRepo({
        ...repository,
        labels: label,
        state: 'all',
        sort: 'updated',
        direction: 'desc',
        per_page: 20
      })
      return data.filter(issue => !issue.pull_request).map(issue => asIssue(issue, headers))
    },
    async createIssue(title, body, labels) {
      const { data, headers } = await octokit.rest.issues.create({
        ...repository,
        title,
        body,
        labels,
        // Never retried: GitHub may have opened the issue before failing to say so.
        request: { retries: 0 }
      })
      return asIssue(data, headers)
    },
    async getIssue(number) {
      const { data, headers } = await octokit.rest.issues.get({
        ...repository,
        issue_number: number
      })
      return asIssue(data, headers)
    },
    async updateIssue(number, change) {
      const made = typeof change === 'function' ? { request: { [EACH_ATTEMPT]: change } } : change
      const { data, headers } = await octokit.rest.issues.update({
        ...repository,
        issue_number: number,
        ...made
      })
      return asIssue(data, headers)
    }
  }
}

function asIssue(
  data: {
    number: number
    title: string
    body?: string | null
    state: string
    html_url: string
    labels: (string | { name?: string })[]
    updated_at?: string
  },
  headers: { date?: string } = {}
): IssueRecord {
  const updatedAt = Date.parse(data.updated_at ?? '')
  const answeredAt = Date.parse(headers.date ?? '')
  return {
    ...(Number.isFinite(updatedAt) ? { updatedAt } : {}),
    ...(Number.isFinite(answeredAt) ? { answeredAt } : {}),
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
