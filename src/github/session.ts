import { sendableSecret } from '../runner/inputs.js'
import {
  type ClientOptions,
  type GitHubApi,
  type GitHubClient,
  type RepoRef,
  openGitHubClient,
  repositoryApi
} from './api.js'
import { DocsPulls, type DocsTokenSource } from './docs-pulls.js'

/**
 * The GitHub a run talks to: one client per token and GitHub host (its Octokit, its connections,
 * its pacing of writes), however many repositories it reads, and one door to the docs repository
 * per token. A docs project of 50 code repositories read with one `code-token` opens one client for
 * them, not 50. Everything the run opened is closed together when it ends.
 */
export class GitHubSession {
  private readonly clients = new Map<string, GitHubClient>()
  private readonly doors = new Map<string, DocsPulls>()
  private openedCount = 0

  /**
   * `cancel`, `clock` and `deadline` (the step's time limit on the run's clock) bound every request
   * of the run, whichever client makes it.
   */
  constructor(private readonly options: ClientOptions = {}) {}

  /** The step's time limit on the run's clock, past which no rate limit is waited for. */
  get deadline(): number | undefined {
    return this.options.deadline
  }

  /** Clients opened so far (one per token and host): what a test or the bench counts. */
  get opened(): number {
    return this.openedCount
  }

  /**
   * One repository's operations with `token`, over the one client of that token on `where`'s host.
   * The first moment the token is needed: an unexpanded `${{ … }}` fails here, naming `tokenInput`.
   */
  repository(token: string, where: RepoRef, tokenInput = 'github-token'): GitHubApi {
    sendableSecret(tokenInput, token)
    const host = where.apiUrl.replace(/\/+$/, '')
    const key = `${host}\n${token}`
    let client = this.clients.get(key)
    if (!client) {
      client = openGitHubClient(token, host, this.options)
      this.clients.set(key, client)
      this.openedCount++
    }
    return repositoryApi(client.octokit, where)
  }

  /**
   * The run's door to the docs repositories with `token` (from `source.tokenInput`) on `apiUrl`:
   * one per token, so who the token is gets read once and every flow shares its connections.
   */
  docsPulls(token: string, source: DocsTokenSource, apiUrl: string): DocsPulls {
    const key = `${apiUrl.replace(/\/+$/, '')}\n${source.tokenInput}\n${token}`
    let door = this.doors.get(key)
    if (!door) {
      door = new DocsPulls(
        (owner, repo) => this.repository(token, { owner, repo, apiUrl }, source.tokenInput),
        source
      )
      this.doors.set(key, door)
    }
    return door
  }

  /** Ends every connection the run opened; a later call opens new ones. */
  async close(): Promise<void> {
    const all = [...this.clients.values()]
    this.clients.clear()
    this.doors.clear()
    await Promise.all(all.map(client => client.close()))
  }
}

/** A repository's operations that own their connections: `close()` ends them. */
export interface GitHubConnection extends GitHubApi {
  close(): Promise<void>
}

/**
 * One repository's operations on a session of their own, for a step that talks to one repository
 * with one token and closes it itself (and for tests of the client).
 */
export function connectGitHub(
  token: string,
  where: RepoRef,
  cancel?: AbortSignal,
  { tokenInput, ...options }: Omit<ClientOptions, 'cancel'> & { tokenInput?: string } = {}
): GitHubConnection {
  const session = new GitHubSession({ ...options, cancel })
  return { ...session.repository(token, where, tokenInput), close: () => session.close() }
}
