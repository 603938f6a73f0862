import { notFound, type RepoRest } from './rest.js'

/** What the run's repository holds and who may do what in it, as GitHubApi offers them. */
export interface RepositoryCalls {
  /** The user's permission and role name on the repository. */
  permission(user: string): Promise<{ permission?: string; roleName?: string }>
  /**
   * Every file path of the default branch, in one request (GitHub's recursive tree); `truncated`
   * when GitHub listed only part of a very large tree.
   */
  treePaths(): Promise<{ paths: string[]; truncated: boolean }>
  /** A file's text on the default branch, or undefined when there is no such file (or it is no text). */
  fileText(path: string): Promise<string | undefined>
}

export function repositoryCalls({ octokit, owner, repo }: RepoRest): RepositoryCalls {
  return {
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
    }
  }
}
