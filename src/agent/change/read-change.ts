import type { Logger } from '../../runner/logger.js'
import { ExplainedError } from '../../runner/errors.js'
import {
  type ChangedFile,
  type Comparison,
  type GitHubApi,
  describeGitHubError,
  permissionHint,
  refusedAccess
} from '../../github/api.js'
import type { PullRequestRef, PushRef } from '../../github/event.js'

/** A code change, read from GitHub: what the prompt describes. */
export interface Change {
  /** owner/name of the code repository. */
  repository: string
  /** Where the description comes from: the pull request, the comparison or the commit. */
  url: string
  /** The pull request: the event's, or for a push the one its head commit belongs to. */
  pull?: PullRequestRef
  push?: PushRef
  /** For a push: its commits, oldest first (GitHub lists at most 250). */
  commits: { sha: string; message: string }[]
  totalCommits: number
  files: ChangedFile[]
  /** How many files changed in all, as far as GitHub says; at least `files.length`. */
  totalFiles: number
  /** GitHub's list stops short and does not say how many more there are. */
  moreFiles: boolean
}

/**
 * Pages of files read at most. 300 file lines fill the prompt's cap several times over; the pull
 * request's own `changed_files` says how many were left out. Keeps a 3,000-file change at 3 requests.
 */
const MAX_FILE_PAGES = 3

/** GitHub's compare and commit endpoints list at most this many files. */
const COMPARE_FILE_LIMIT = 300

/** The merged (or proposed) pull request and its changed files. */
export async function readPullChange(
  github: GitHubApi,
  repository: string,
  pull: PullRequestRef,
  includeDiff: boolean
): Promise<Change> {
  let listed: { files: ChangedFile[]; cut: boolean }
  try {
    listed = await github.pullFiles(pull.number, MAX_FILE_PAGES)
  } catch (error) {
    throw unreadable(
      `list the changed files of pull request #${pull.number}`,
      'pull-requests: read',
      error
    )
  }
  const files = includeDiff ? listed.files : listed.files.map(withoutPatch)
  const totalFiles = Math.max(files.length, pull.changedFiles ?? 0)
  return {
    repository,
    url: pull.url,
    pull,
    commits: [],
    totalCommits: 0,
    files,
    totalFiles,
    moreFiles: listed.cut && pull.changedFiles === undefined
  }
}

/** The pushed range through the compare API; a new branch's head commit on its own. */
export async function readPushChange(
  github: GitHubApi,
  repository: string,
  push: PushRef,
  pull: PullRequestRef | undefined,
  includeDiff: boolean
): Promise<Change> {
  let comparison: Comparison
  try {
    comparison = push.created
      ? await github.commit(push.after)
      : await github.compare(push.before, push.after)
  } catch (error) {
    const what = push.created
      ? `read the pushed commit ${push.after.slice(0, 12)}`
      : `compare the pushed range ${push.before.slice(0, 12)}...${push.after.slice(0, 12)}`
    throw unreadable(what, 'contents: read', error)
  }
  const files = includeDiff ? comparison.files : comparison.files.map(withoutPatch)
  return {
    repository,
    url: comparison.url || push.compareUrl || '',
    pull,
    push,
    commits: comparison.commits,
    totalCommits: Math.max(comparison.totalCommits, comparison.commits.length),
    files,
    totalFiles: files.length,
    moreFiles: files.length >= COMPARE_FILE_LIMIT
  }
}

/**
 * The pull request the pushed head commit belongs to (a merged one first), for the comment and the
 * trust checks. Not finding one is normal (a direct push); failing to look is a warning, not a stop:
 * the prompt is built from the push either way.
 */
export async function findPushPull(
  github: GitHubApi,
  push: PushRef,
  log: Logger
): Promise<PullRequestRef | undefined> {
  try {
    const pulls = await github.commitPulls(push.after)
    return pulls.find(p => p.merged) ?? pulls[0]
  } catch (error) {
    log.warning(
      `Could not look up the pull request of commit ${push.after.slice(0, 12)} (${describeGitHubError(error)}), so there is no pull request to comment on. Give the workflow 'pull-requests: read'.`
    )
    return undefined
  }
}

function withoutPatch(file: ChangedFile): ChangedFile {
  const { patch: _patch, ...rest } = file
  return rest
}

/** Never a half-built prompt: the run stops and says what to grant. */
function unreadable(what: string, grant: string, error: unknown): ExplainedError {
  const hint = refusedAccess(error)
    ? `${permissionHint(`'${grant}'`)} Check that 'github-token' belongs to this repository.`
    : 'Re-run the workflow; the agent is not started with a partial description of the change.'
  return new ExplainedError(`Could not ${what}: ${describeGitHubError(error)}. ${hint}`)
}
