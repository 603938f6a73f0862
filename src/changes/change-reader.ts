import {
  type GitHubApi,
  describeGitHubError,
  isGitHubCallError,
  permissionHint,
  refusedAccess
} from '../github/api.js'
import type { RunEvent } from '../github/event.js'
import type { GitHubSession } from '../github/session.js'
import { docsFailure } from '../github/docs-pulls.js'
import { defaultBranchHead, readHistory } from '../github/history.js'
import type { Clock } from '../runner/clock.js'
import { ExplainedError, errorText } from '../runner/errors.js'
import type { Logger } from '../runner/logger.js'
import { bytes, counted } from '../runner/text.js'
import { Input } from '../agent/names.js'
import type { ChangeRef } from '../records/ledger.js'
import { docsPulls } from '../agent/docs-repository.js'
import type { ChangeBatch } from '../agent/batch.js'
import { type ChangeSource, readPatches, readPull, readRange } from './change-batch.js'
import type { ChangePlan } from './change-plan.js'
import { MAX_PATCH, batchSources, changePrompt } from './change-prompt.js'
import { type ChangeRules, batchSize } from './change-rules.js'

/** Commits read at most for one batch: a range longer than this is documented from its newest. */
const MAX_RANGE = 100
/** The diff excerpt's patches read at most, in bytes: more than any prompt could hold. */
const MAX_PATCH_BYTES = 24_000

/** What reading needs of the settings. */
export interface ReaderSettings {
  /** Masked; its identity's changes are the agent's own. */
  docsToken: string
  includeDiff: boolean
  /** The policy file's standing instruction, put before the changes. */
  instructions?: string
  /** `code-token`: with `code-repositories`, what reads them instead of `github-token`. */
  codeToken?: string
}

/** What reading needs of the run. */
export interface ReaderDeps {
  log: Logger
  clock: Clock
  session: GitHubSession
  signal?: AbortSignal
}

/**
 * What a change run reads of GitHub: its batch of changes (the range since the last documented
 * commit, a pull request, a push), the patches for the diff excerpt, the default branch's head and
 * who `docs-token` is, and the prompt built from them. A read that fails stops the run with what to
 * grant or do: the agent never gets a half-read batch.
 */
/** Changes of uncertain requests read again at most, of each kind: the ledger keeps no more. */
const MAX_RESENT = 50

export class ChangeReader {
  private readonly where: { owner: string; repo: string }
  private readonly source: ChangeSource

  constructor(
    private readonly settings: ReaderSettings,
    private readonly event: RunEvent,
    private readonly deps: ReaderDeps,
    private readonly github: GitHubApi,
    private readonly rules: ChangeRules,
    /** The code repository read: the event's own unless given (`code-repositories`). */
    where?: { owner: string; repo: string }
  ) {
    this.where = where ?? { owner: event.owner, repo: event.repo }
    this.source = github
  }

  /** The commit before a batch's head (a merge's first parent, as GitHub's history lists it). */
  async parentOf(batch: ChangeBatch): Promise<string | undefined> {
    const history = await this.read(`read the history of ${batch.branch}`, () =>
      readHistory(this.source.graphql, {
        ...this.where,
        head: batch.head,
        base: batch.branch,
        max: 2
      })
    )
    return history.commits[1]?.sha
  }

  /** The batch a ledger run documents: from the last documented commit, or the event's own change. */
  async ledgerBatch(
    plan: Extract<ChangePlan, { kind: 'range' | 'since-last' }>,
    head: { sha: string; branch: string },
    documented: string | undefined,
    notices: string[],
    /**
     * A docs project's repository: on a rewritten history, its merges since this time (when its
     * watermark was recorded) are read instead of the head alone.
     */
    rewrittenFrom?: number
  ): Promise<ChangeBatch> {
    const own = async (): Promise<ChangeBatch> => {
      if (plan.kind === 'range' && plan.push)
        return this.readRange(
          plan.push.after,
          plan.push.created ? undefined : plan.push.before,
          head.branch
        )
      const number = plan.kind === 'range' ? plan.pull?.number : undefined
      const pull =
        number === undefined
          ? undefined
          : await this.read(`read pull request #${number}`, () =>
              readPull(this.source, this.where, number)
            )
      if (!pull) return this.readRange(head.sha, undefined, head.branch)
      return { ...this.emptyBatch(head.sha, head.branch), url: pull.url, pulls: [pull] }
    }
    // The first run of an empty ledger documents only its own change.
    if (!documented) return own()
    const read = await this.read(`read the history of ${head.branch}`, () =>
      readRange(this.source, {
        ...this.where,
        branch: head.branch,
        head: head.sha,
        base: documented,
        maxCommits: MAX_RANGE,
        pull: plan.kind === 'range' ? plan.pull?.number : undefined,
        serverUrl: this.event.serverUrl
      })
    )
    if (!read.reachedBase && plan.kind === 'range' && plan.push?.forced) {
      notices.push(
        `The last documented commit ${documented.slice(0, 12)} is no longer on ${head.branch} (a force-push rewrote its history): this run documents its own push only.`
      )
      return own()
    }
    // Not reached within the bounds: a long history, or one rewritten by a force-push this action
    // never saw (no push workflow, a cancelled run). GitHub's comparison tells them apart.
    if (!read.reachedBase) {
      const status = await this.read(`compare ${documented.slice(0, 12)} with ${head.branch}`, () =>
        this.github.compareStatus(documented, head.sha)
      )
      // The head is behind: an older run's event, late or re-run, after a later merge was
      // documented. Its changes are documented already; the last documented commit stays.
      if (status === 'behind')
        return {
          ...this.emptyBatch(head.sha, head.branch),
          olderThanDocumented: `${head.sha.slice(0, 12)} on ${head.branch} is older than the last documented commit ${documented.slice(0, 12)} (an earlier change, its event late or re-run): its changes are documented already, and the dashboard is left as it is.`
        }
      if (status !== 'ahead' && status !== 'identical' && rewrittenFrom) {
        notices.push(
          `The last documented commit ${documented.slice(0, 12)} of ${this.where.owner}/${this.where.repo} is not in the history of ${head.branch} at ${head.sha.slice(0, 12)} (GitHub compares them as ${status === 'missing' ? 'unknown: the commit is gone' : status}): the history was rewritten, by a force-push. This run reads its merges since ${new Date(rewrittenFrom).toISOString().slice(0, 16).replace('T', ' ')} UTC, when that commit was recorded, leaving out those documented already.`
        )
        return this.readWindow(head.sha, head.branch, rewrittenFrom)
      }
      if (status !== 'ahead' && status !== 'identical') {
        notices.push(
          `The last documented commit ${documented.slice(0, 12)} is not in the history of ${head.branch} at ${head.sha.slice(0, 12)} (GitHub compares them as ${status === 'missing' ? 'unknown: the commit is gone' : status}): the history was rewritten, by a force-push this action did not see. This run documents its own change only; the changes before it are not sent again.`
        )
        return own()
      }
    }
    return read.batch
  }

  /** `withoutLedger`: no later run takes what this one leaves out, so the newest are read. */
  readRange(
    head: string,
    base: string | undefined,
    branch: string,
    withoutLedger = false
  ): Promise<ChangeBatch> {
    return this.read(`read the pushed commits of ${branch}`, async () => {
      const read = await readRange(this.source, {
        ...this.where,
        branch,
        head,
        base,
        maxCommits: MAX_RANGE,
        serverUrl: this.event.serverUrl,
        ...(withoutLedger ? { newestFirst: true } : {})
      })
      return read.batch
    })
  }

  /**
   * The changes of uncertain requests whose boxes were ticked, read again to be sent again: their
   * pull requests (one request each) and the commits pushed without one. `head` is the last
   * documented commit, which sending them again does not move.
   */
  async resentBatch(changes: ChangeRef[], head: string, branch: string): Promise<ChangeBatch> {
    const batch = this.emptyBatch(head, branch)
    const numbers = [...new Set(changes.flatMap(c => (c.pr === undefined ? [] : [c.pr])))]
    for (const number of numbers.slice(0, MAX_RESENT)) {
      const pull = await this.read(`read pull request #${number}`, () =>
        readPull(this.source, this.where, number)
      )
      if (pull) batch.pulls.push(pull)
    }
    const direct = changes.filter(c => c.pr === undefined && /^[0-9a-f]{40}$/.test(c.sha))
    for (const commit of direct.slice(0, MAX_RESENT))
      batch.commits.push(...(await this.readRange(commit.sha, undefined, branch)).commits)
    const unread =
      Math.max(0, numbers.length - MAX_RESENT) + Math.max(0, direct.length - MAX_RESENT)
    if (unread)
      batch.leftOut.push(
        `${unread} more changes of the requests sent again, beyond the ${MAX_RESENT} pull requests and ${MAX_RESENT} commits read again per run: send them with a prompt`
      )
    return batch
  }

  /** The merges of the default branch since `from` (epoch ms): a first look at a repository. */
  readWindow(head: string, branch: string, from: number): Promise<ChangeBatch> {
    return this.read(`read the history of ${branch}`, async () => {
      const read = await readRange(this.source, {
        ...this.where,
        branch,
        head,
        from,
        maxCommits: MAX_RANGE,
        serverUrl: this.event.serverUrl
      })
      return read.batch
    })
  }

  emptyBatch(head: string, branch: string): ChangeBatch {
    const repository = `${this.where.owner}/${this.where.repo}`
    return {
      repository,
      branch,
      url: `${this.event.serverUrl}/${repository}/commit/${head}`,
      head,
      pulls: [],
      commits: [],
      skipped: [],
      leftOut: []
    }
  }

  /**
   * Who `docs-token` is, when it is set and GitHub says: the docs agent's pull requests are opened
   * with it, so its changes are the agent's own. Not knowing is no reason to stop.
   */
  async docsIdentity(): Promise<string | undefined> {
    const { settings, event, deps } = this
    if (!settings.docsToken) return undefined
    try {
      return await docsPulls(settings, event.apiUrl, deps).identity(event)
    } catch (error) {
      deps.log.debug(`Could not tell who 'docs-token' is: ${docsFailure(error).why}.`)
      return undefined
    }
  }

  /** The default branch and its newest commit, for a scheduled catch-up. */
  async branchHead(): Promise<{ sha: string; branch: string }> {
    const head = await this.read('read the default branch', () =>
      defaultBranchHead(this.github.graphql, this.where)
    )
    if (!head)
      throw new ExplainedError(
        `GitHub named no default branch for ${this.where.owner}/${this.where.repo}: there is nothing to catch up on.`
      )
    return head
  }

  /** `patches`: the diff excerpt read elsewhere (several repositories'); this reader's otherwise. */
  async prompt(
    batch: ChangeBatch,
    followUp: boolean,
    given?: { path: string; patch: string }[]
  ): Promise<string> {
    const { settings } = this
    const patches = given ?? (settings.includeDiff ? await this.patches(batch) : undefined)
    const prompt = changePrompt(batch, { instruction: settings.instructions, followUp, patches })
    if (!followUp)
      this.deps.log.info(
        `Described ${counted(batchSize(batch), 'change')} from ${batchSources(batch).join(', ') || batch.repository}: ${Math.round(bytes(prompt) / 100) / 10} KB of prompt.`
      )
    return prompt
  }

  private patchesRead?: { path: string; patch: string }[]

  /** Patches for the diff excerpt: read once, a page at a time, until the excerpt is full. */
  async patches(batch: ChangeBatch): Promise<{ path: string; patch: string }[]> {
    if (this.patchesRead) return this.patchesRead
    const patches: { path: string; patch: string }[] = []
    let total = 0
    await this.read('read the patches of the changes', () =>
      readPatches(
        this.source,
        batch,
        path => this.rules.paths.counts(path),
        (path, patch) => {
          // Cut at once, into a string of its own: V8's slices keep their whole parent alive, so a
          // plain slice would keep each 1 MB patch in memory for the rest of the run.
          const cut =
            patch.length > MAX_PATCH + 1
              ? Buffer.from(patch.slice(0, MAX_PATCH + 1)).toString()
              : patch
          patches.push({ path, patch: cut })
          total += bytes(cut)
          return total >= MAX_PATCH_BYTES ? 'full' : 'more'
        }
      )
    )
    return (this.patchesRead = patches)
  }

  /** Which token to check: a code repository's reader names the one that reads it. */
  private tokenHint(): string {
    const { owner, repo } = this.where
    if (owner === this.event.owner && repo === this.event.repo)
      return `Check that '${Input.GithubToken}' belongs to this repository.`
    const token = this.settings.codeToken ? Input.CodeToken : Input.GithubToken
    return `Check that '${token}' can read ${owner}/${repo}.`
  }

  /**
   * A read of GitHub that fails stops the run: the agent never gets a half-read batch. A refusal
   * names the permissions to grant; anything else says to re-run.
   */
  async read<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (error) {
      if (this.deps.signal?.aborted || error instanceof ExplainedError) throw error
      // Not an HTTP error: GitHub answered, but not with what was asked for (GraphQL errors, no such commit).
      const why = isGitHubCallError(error)
        ? describeGitHubError(error)
        : errorText(error)
            // Octokit's words before GitHub's own in a GraphQL answer with errors.
            .replace(/^Request failed due to following response errors:\s*-?\s*/, '')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 300)
            .replace(/\.$/, '')
      const refused = refusedAccess(error)
      const hint = refused
        ? `${permissionHint("'contents: read' and 'pull-requests: read'")} ${this.tokenHint()}`
        : 'Re-run the workflow; the agent is not started with a partial description of the changes.'
      throw new ReadError(`Could not ${what}: ${why}. ${hint}`, why, refused)
    }
  }
}

/** A read of GitHub that failed: what GitHub said, and whether it refused access. */
export class ReadError extends ExplainedError {
  override name = 'ReadError'

  constructor(
    message: string,
    /** GitHub's answer in a few words (`HTTP 404`). */
    readonly why: string,
    /** GitHub refused (401, 403, 404): the token cannot read the repository. */
    readonly refused: boolean
  ) {
    super(message)
  }
}
