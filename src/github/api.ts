import { getOctokit } from '@actions/github'
import { USER_AGENT } from '../action/version.js'

/** The few GitHub operations the action uses. */
export interface GitHubApi {
  listComments(issue: number): Promise<IssueComment[]>
  createComment(issue: number, body: string): Promise<number>
  updateComment(id: number, body: string): Promise<void>
  /** The user's permission and role name on the repository. */
  permission(user: string): Promise<{ permission?: string; roleName?: string }>
}

export interface IssueComment {
  id: number
  body: string
  authorType: string
}

const TIMEOUT_MS = 15_000
/** Short enough that a cancelled step still ends within 2 s, long enough for a healthy GitHub. */
const GRACE_MS = 1_500

/** Where the comments go: the run's repository, on the run's GitHub. */
export interface RepoRef {
  owner: string
  repo: string
  /** The REST API's base URL (GITHUB_API_URL; GitHub Enterprise Server has its own). */
  apiUrl: string
}

/**
 * The toolkit's Octokit (@actions/github's getOctokit): the same plugins and proxy rules as every
 * other action (it decides the proxy from GITHUB_API_URL when loaded). Every call is bounded by its
 * own time limit and by the run's cancel signal, so a slow GitHub cannot hold a cancelled step.
 * No retries: comments are best effort (a failure is a warning), and the permission check fails
 * closed with a message that says so.
 */
export function connectGitHub(
  token: string,
  { owner, repo, apiUrl }: RepoRef,
  cancel?: AbortSignal
): GitHubApi {
  const octokit = getOctokit(token, { baseUrl: apiUrl.replace(/\/+$/, ''), userAgent: USER_AGENT })
  // A call in flight stops at the cancel; one made after it (the comment's last word) gets a short grace.
  const request = () => ({
    signal:
      cancel && !cancel.aborted
        ? AbortSignal.any([cancel, AbortSignal.timeout(TIMEOUT_MS)])
        : AbortSignal.timeout(cancel ? GRACE_MS : TIMEOUT_MS)
  })
  return {
    async listComments(issue) {
      const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: issue,
        per_page: 100,
        request: request()
      })
      return comments.map(c => ({ id: c.id, body: c.body ?? '', authorType: c.user?.type ?? '' }))
    },
    async createComment(issue, body) {
      const { data } = await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: issue,
        body,
        request: request()
      })
      return data.id
    },
    async updateComment(id, body) {
      await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: id,
        body,
        request: request()
      })
    },
    async permission(user) {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        owner,
        repo,
        username: user,
        request: request()
      })
      return { permission: data.permission, roleName: (data as { role_name?: string }).role_name }
    }
  }
}
