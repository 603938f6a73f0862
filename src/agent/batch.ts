import type { ChangedFile } from '../github/api.js'
import type { PullDetails } from '../github/history.js'

// The shape of a batch of code changes: read by change/change-batch.ts, kept waiting by the ledger,
// reported by the run. Apart from its reading, so the ledger and the report need no flow.

/** A changed file as the prompt lists it; patches are read apart, only for the diff excerpt. */
export type ChangedPath = Omit<ChangedFile, 'patch'>

/** A pull request in the batch. */
export interface BatchPull extends Omit<PullDetails, 'files'> {
  files: ChangedPath[]
  /** Every changed file is listed (GitHub lists the first 100 of a pull request here). */
  filesComplete: boolean
  /** owner/name of its code repository, in a batch of several (`code-repositories`). */
  repository?: string
}

/** A commit pushed to the branch without a pull request. */
export interface BatchCommit {
  sha: string
  message: string
  author: string
  authorIsBot: boolean
  files: ChangedPath[]
  filesComplete: boolean
  /** owner/name of its code repository, in a batch of several (`code-repositories`). */
  repository?: string
}

/**
 * One code repository's share of a batch of several (`code-repositories`): the range read, from
 * its watermark (`base`) to `head`, where its watermark moves once the batch is handed over.
 */
export interface RepositoryPart {
  /** owner/name, as `code-repositories` lists it. */
  name: string
  branch: string
  head: string
  /**
   * Its watermark when the range was read; for a repository seen for the first time without
   * `since`, its head: the ledger records it even while the batch waits.
   */
  base?: string
  /** The range on GitHub (a comparison), or its newest commit. */
  url: string
  /**
   * A first look with `since`: the commit before the window. While the batch waits it is recorded
   * as the watermark, so that a later run reads the same merges however far the window slid.
   */
  start?: string
  /** Its range's commits, newest first (ChangeBatch.history), to cut it where a prompt stops. */
  history?: HistoryStep[]
  /** GitHub's node id of the repository, recorded with its watermark: it survives a rename. */
  id?: string
}

/** A commit of a batch's range, and the pull request it came through. */
export interface HistoryStep {
  sha: string
  pull?: number
}

/** A change left out by a rule, and why: shown in the summary and on the dashboard. */
export interface SkippedChange {
  /** `#12` or a short commit id. */
  ref: string
  title: string
  url?: string
  sha: string
  why: string
}

/** What one run hands to the agent: the changes of a range of the branch, or one pull request. */
export interface ChangeBatch {
  /** owner/name of the code repository. */
  repository: string
  branch: string
  /** The range on GitHub (a comparison), or the pull request or commit. */
  url: string
  /** The newest commit covered: where the last documented commit moves to. */
  head: string
  /** The commit the range starts after, when it has one. */
  base?: string
  pulls: BatchPull[]
  commits: BatchCommit[]
  skipped: SkippedChange[]
  /** What the bounds left out, in words. */
  leftOut: string[]
  /** A window read (no `base`): its oldest commit taken; the range starts after its parent. */
  oldest?: string
  /** Changes beyond one run's bounds, after `head`: the next runs take them, oldest first. */
  backlog?: number
  /**
   * The range's commits as read, newest first, each with the pull request it came through: where
   * a cut to what one prompt describes may fall (src/changes/batch-fit.ts). Not kept anywhere.
   */
  history?: HistoryStep[]
  /**
   * The head is in the history before the last documented commit (a late event, or a re-run of an
   * older one): everything in it is documented already, and the ledger is not written.
   */
  olderThanDocumented?: string
  /**
   * With `code-repositories`: each repository read, in the listed order; the pulls and commits
   * name theirs. Undefined: the batch is of `repository` alone.
   */
  parts?: RepositoryPart[]
  /**
   * With `code-repositories`: every repository the run lists (read or not), by key. A watermark of
   * a repository no longer listed leaves the ledger when the watermarks are written.
   */
  listed?: string[]
  /**
   * With `code-repositories`: the listed repositories that could not be read and have no
   * watermark, by name: the ledger notes since when they wait, and their first look reads from then.
   */
  unread?: string[]
}
