import {
  type ChangedFile,
  type GitHubApi,
  type IssueComment,
  type RepoFile,
  describeGitHubError,
  notFound,
  refusedAccess
} from './api.js'
import type { PullRequestRef } from './event.js'
import { viewerLogin } from './history.js'
import { type PullActivity, readPullActivity } from './pull-activity.js'

/**
 * The one door to the docs repository, where the Mintlify agent opens its docs pull requests: every
 * flow that reads or changes them (folding, expiry, outcomes, reviewers, review records, reader
 * impact, the issue flow's earlier job) goes through it, so that a failure is told apart (refused
 * for want of access, or not answered) in one place, and what to grant is worded once.
 */

/** A pull request of a docs repository. */
export interface DocsPull {
  owner: string
  repo: string
  number: number
}

/**
 * What a docs pull request has come to, as GitHub shows it: the one reading of it every flow shares
 * (folding, `max-open`, expiry, the outcomes). GitHub calls a merged pull request `closed` with
 * `merged` set: merged comes first.
 */
export interface DocsPullState {
  state: 'open' | 'merged' | 'closed'
  /** When it was opened, when GitHub says. */
  createdAt?: number
  /** When it was merged, or closed without merging; none while it is open. */
  endedAt?: number
  /** Opened as a draft and not marked ready for review yet. */
  draft: boolean
}

/** A pull request as GitHub answered it, read as a docs pull request's state. */
export function docsPullState(pull: PullRequestRef): DocsPullState {
  const state = pull.merged ? 'merged' : pull.state === 'open' ? 'open' : 'closed'
  const endedAt =
    state === 'merged' ? pull.mergedAt : state === 'closed' ? pull.closedAt : undefined
  return {
    state,
    draft: Boolean(pull.draft),
    ...(pull.createdAt !== undefined ? { createdAt: pull.createdAt } : {}),
    ...(endedAt !== undefined ? { endedAt } : {})
  }
}

/** What a flow needs of the token, as the sentence of what to grant says it. */
export type DocsAccess = 'read' | 'write' | 'read and write'

/** Where the token comes from, for the sentences that name it. */
export interface DocsTokenSource {
  /** The input the token comes from: `docs-token`, or `github-token` reading a public docs repository. */
  tokenInput: string
  /** The input that gives the docs repository a token of its own (`docs-token`). */
  docsInput: string
}

/** What a token may be given access to: the pull requests, and for reader impact the contents. */
type Granted = 'pull requests' | 'contents and pull requests'

/** A call to the docs repository that failed: why, and what to grant when GitHub refused. */
export class DocsPullError extends Error {
  constructor(
    /** GitHub's answer in a few words: `HTTP 403`, `no answer from GitHub (ECONNRESET)`. */
    readonly why: string,
    /** GitHub refused for want of access (401, 403, 404). */
    readonly refused: boolean,
    /** GitHub answered 404: no such pull request, or none this token may see. */
    readonly missing: boolean,
    private readonly where: Pick<DocsPull, 'owner' | 'repo'>,
    private readonly source: DocsTokenSource,
    private readonly granted: Granted,
    cause: unknown
  ) {
    super(why, { cause })
  }

  /**
   * What to grant, as one sentence with its leading space, when GitHub refused; '' otherwise: the
   * flow says what it needs (`read`, `write`, `read and write`).
   */
  grant(need: DocsAccess): string {
    return this.refused ? grantSentence(need, this.where, this.source, this.granted) : ''
  }
}

/**
 * The one wording of what to grant. With `docs-token` set: give it `need` access to the docs
 * repository's pull requests. Without (the run's own token read the pull request): set
 * `docs-token`, since a private docs repository is out of the run's token's reach.
 */
export function grantSentence(
  need: DocsAccess,
  where: Pick<DocsPull, 'owner' | 'repo'>,
  source: DocsTokenSource,
  granted: Granted = 'pull requests'
): string {
  return source.tokenInput === source.docsInput
    ? ` Give '${source.docsInput}' ${need} access to the ${granted} of ${where.owner}/${where.repo}.`
    : ` If the docs repository is private, set '${source.docsInput}' to a token that can ${need} its ${granted}.`
}

/**
 * The docs repository's pull requests, read and changed with one token: each call that fails throws
 * a DocsPullError. One run builds one per token (GitHubSession.docsPulls); each repository's
 * operations are made at its first call (an unusable token fails there, as a DocsPullError too).
 */
export class DocsPulls {
  private readonly connections = new Map<string, GitHubApi>()
  private identityRead?: Promise<string | undefined>

  constructor(
    private readonly connect: (owner: string, repo: string) => GitHubApi,
    readonly source: DocsTokenSource
  ) {}

  /** The input the token comes from, as the sentences name it. */
  get tokenInput(): string {
    return this.source.tokenInput
  }

  /** What to grant for `need` on this repository: the sentence a refusal ends with. */
  grant(need: DocsAccess, where: Pick<DocsPull, 'owner' | 'repo'>): string {
    return grantSentence(need, where, this.source)
  }

  pull(where: DocsPull): Promise<PullRequestRef> {
    return this.call(where, docs => docs.pull(where.number))
  }

  /** Its state: open, merged or closed, with its times (docsPullState). */
  async state(where: DocsPull): Promise<DocsPullState> {
    return docsPullState(await this.pull(where))
  }

  /** Closes it without merging: the pull request as it now is (a merged one stays merged). */
  close(where: DocsPull): Promise<PullRequestRef> {
    return this.call(where, docs => docs.closePull(where.number))
  }

  /** Its files, `maxPages` pages of a hundred at most. */
  files(where: DocsPull, maxPages: number): Promise<ChangedFile[]> {
    return this.call(
      where,
      async docs => {
        const files: ChangedFile[] = []
        let pages = 0
        for await (const page of docs.pullFilePages(where.number, 100)) {
          files.push(...page)
          if (++pages >= maxPages) break
        }
        return files
      },
      'contents and pull requests'
    )
  }

  /** Every file path of the docs repository's default branch: one request (GitHub's recursive tree). */
  tree(where: Pick<DocsPull, 'owner' | 'repo'>): Promise<{ paths: string[]; truncated: boolean }> {
    return this.call(where, docs => docs.treePaths(), 'contents and pull requests')
  }

  /**
   * A file's text on the docs repository's default branch, `maxBytes` at most, or why there is
   * none (missing, too large: no error, so never a permission to grant).
   */
  fileText(
    where: Pick<DocsPull, 'owner' | 'repo'>,
    path: string,
    maxBytes?: number
  ): Promise<RepoFile> {
    return this.call(where, docs => docs.fileText(path, maxBytes), 'contents and pull requests')
  }

  /** Up to FILES_PER_QUERY files' texts on the default branch, in one request. */
  fileTexts(
    where: Pick<DocsPull, 'owner' | 'repo'>,
    paths: readonly string[]
  ): Promise<Map<string, RepoFile>> {
    return this.call(where, docs => docs.fileTexts(paths), 'contents and pull requests')
  }

  comments(where: DocsPull): Promise<IssueComment[]> {
    return this.call(where, docs => docs.listComments(where.number))
  }

  /** Posts a comment (never retried); its id. */
  comment(where: DocsPull, body: string): Promise<number> {
    return this.call(where, docs => docs.createComment(where.number, body))
  }

  /** A person's permission on the docs repository (GitHub's `permission`). */
  async permission(where: Pick<DocsPull, 'owner' | 'repo'>, login: string): Promise<string> {
    const level = await this.call(where, docs => docs.permission(login))
    return level.permission ?? 'none'
  }

  requestReviewers(where: DocsPull, logins: string[]): Promise<void> {
    return this.call(where, docs => docs.requestReviewers(where.number, logins))
  }

  /** Its commits, reviews, comments and labels, with who and when: one request. */
  activity(where: DocsPull): Promise<PullActivity> {
    return this.call(where, docs => readPullActivity(docs.graphql, where))
  }

  /** Who the token is (its login), read once; undefined when GitHub does not say. */
  identity(where: Pick<DocsPull, 'owner' | 'repo'>): Promise<string | undefined> {
    this.identityRead ??= this.call(where, docs => viewerLogin(docs.graphql))
    return this.identityRead
  }

  /** The one access check: every call's failure is told apart here, and nowhere else. */
  private async call<T>(
    where: Pick<DocsPull, 'owner' | 'repo'>,
    fn: (docs: GitHubApi) => Promise<T>,
    granted: Granted = 'pull requests'
  ): Promise<T> {
    try {
      return await fn(this.connection(where))
    } catch (error) {
      throw new DocsPullError(
        describeGitHubError(error),
        refusedAccess(error),
        notFound(error),
        where,
        this.source,
        granted,
        error
      )
    }
  }

  private connection({ owner, repo }: Pick<DocsPull, 'owner' | 'repo'>): GitHubApi {
    const key = `${owner}/${repo}`.toLowerCase()
    let docs = this.connections.get(key)
    if (!docs) {
      docs = this.connect(owner, repo)
      this.connections.set(key, docs)
    }
    return docs
  }
}

/** A door call's failure, told apart: whatever was thrown (a DocsPullError from every call). */
export function docsFailure(
  error: unknown
): Pick<DocsPullError, 'why' | 'refused' | 'missing' | 'grant'> {
  if (error instanceof DocsPullError) return error
  return { why: describeGitHubError(error), refused: false, missing: false, grant: () => '' }
}
