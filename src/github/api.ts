import { USER_AGENT } from '../version.js'
import { proxyFor } from '../api/proxy.js'
import { nodeFetch } from './fetch.js'

/** The few GitHub operations the action uses; the Octokit behind it is loaded only when needed. */
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

/** Where the comments go: the run's repository, on the run's GitHub. */
export interface RepoRef {
  owner: string
  repo: string
  /** The REST API's base URL (GITHUB_API_URL; GitHub Enterprise Server has its own). */
  apiUrl: string
}

/**
 * Loaded lazily: runs that neither comment nor check permissions never pay for Octokit.
 * Without a proxy for the API's host (the same rules as the Mintlify client's), Octokit sends over
 * node:http; behind one, the toolkit's Octokit, which knows how to use it, is loaded instead (with undici).
 */
async function octokitFor(token: string, apiUrl: string) {
  if (proxyFor(new URL(apiUrl))) {
    const { getOctokit } = await import('@actions/github')
    return getOctokit(token, { baseUrl: apiUrl })
  }
  const { DirectOctokit } = await import('./octokit.js')
  return new DirectOctokit({
    auth: `token ${token}`,
    baseUrl: apiUrl,
    userAgent: USER_AGENT,
    request: { fetch: nodeFetch() }
  })
}

export async function connectGitHub(
  token: string,
  { owner, repo, apiUrl }: RepoRef
): Promise<GitHubApi> {
  const octokit = await octokitFor(token, apiUrl.replace(/\/+$/, ''))
  const request = () => ({ signal: AbortSignal.timeout(TIMEOUT_MS) })
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
