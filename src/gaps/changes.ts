import {
  type ChangedFile,
  type GitHubApi,
  describeGitHubError,
  permissionHint,
  refusedAccess
} from '../github/api.js'
import {
  CHANGES_PER_REQUEST,
  MAX_LISTED_PULLS,
  readChanges,
  readMergedPulls
} from '../github/changes.js'
import { type ChangeRef, DASHBOARD_LABEL, readDashboardState } from '../records/ledger.js'
import type { RecordSigner } from '../records/record.js'
import { stripInvisible } from '../runner/untrusted.js'
import { counted } from '../runner/text.js'
import type { ChangeText, MergeWindow } from './causes.js'
import { cleanReaderText } from './reader-text.js'

/** Changes described at most: four GraphQL requests. The newest are kept. */
export const MAX_CHANGES = 100
/** Changes whose diff is read (one REST request each), newest first, and the files and text kept. */
export const MAX_DIFFS = 10
const DIFF_FILES = 30
const MAX_DIFF_CHARS = 4000
const MAX_BODY_CHARS = 4000
const MAX_TITLE = 200
/** The most GitHub requests a run makes for its changes: the dashboard, the descriptions, the diffs. */
export const MAX_GITHUB_REQUESTS = 1 + Math.ceil(MAX_CHANGES / CHANGES_PER_REQUEST) + MAX_DIFFS

export const GITHUB_GRANT = '`contents: read`, `pull-requests: read` and `issues: read`'

export interface ChangesRead {
  changes: ChangeText[]
  /** Where the changes came from; null when none could be read. */
  source: 'ledger' | 'pull-requests' | null
  /** What a reader of the report should know: no ledger, what was left out, what failed. */
  notices: string[]
  /** GitHub requests made (retries aside). */
  requests: number
}

export interface ChangesWhere {
  owner: string
  repo: string
  projectId: string
  signer: RecordSigner
  /** `changes-since`, epoch ms. */
  since: number
  /** The analytics range: only changes merged inside it get their diff read. */
  window: MergeWindow
}

/**
 * The repository's changes since `since`: the documented changes of the ledger (pull requests and
 * direct pushes) when the dashboard holds one for the project, else the pull requests merged into
 * the default branch. A bounded number of GitHub requests (MAX_GITHUB_REQUESTS) however many
 * changes; what GitHub refuses or fails is a notice, never a failed step.
 */
export async function readChangesSince(
  github: GitHubApi,
  where: ChangesWhere
): Promise<ChangesRead> {
  const read: ChangesRead = { changes: [], source: null, notices: [], requests: 0 }
  const repository = { owner: where.owner, repo: where.repo }
  try {
    const refs = await ledgerChanges(github, where, read)
    let details
    if (refs) {
      read.requests += Math.ceil(refs.length / CHANGES_PER_REQUEST)
      details = (await readChanges(github.graphql, repository, refs)).filter(
        c => c.mergedAt >= where.since
      )
      read.source = 'ledger'
    } else {
      read.requests++
      const listed = await readMergedPulls(github.graphql, repository, where.since)
      details = listed.changes
      read.source = 'pull-requests'
      if (listed.unread)
        read.notices.push(
          `${counted(listed.unread, 'more pull request')} merged since the start of changes-since ${listed.unread === 1 ? 'was' : 'were'} not read: GitHub's search lists ${MAX_LISTED_PULLS} in one request (the most recently opened ones are read).`
        )
    }
    read.changes = details.map(c => ({
      ...c,
      title: cleanReaderText(c.title, MAX_TITLE),
      body: stripInvisible(c.body).slice(0, MAX_BODY_CHARS),
      diff: ''
    }))
  } catch (error) {
    read.notices.push(gitHubTrouble('read the changes', error))
    return read
  }
  await readDiffs(github, where.window, read)
  return read
}

/** The project's documented changes from the ledger, newest last; undefined (with a notice) when there is none. */
async function ledgerChanges(
  github: GitHubApi,
  where: ChangesWhere,
  read: ChangesRead
): Promise<ChangeRef[] | undefined> {
  let issues
  try {
    read.requests++
    issues = await github.issuesWithLabel(DASHBOARD_LABEL)
  } catch (error) {
    read.notices.push(
      `${gitHubTrouble('read the dashboard issue', error)} The merged pull requests were read instead.`
    )
    return undefined
  }
  // Each state is read as written in its own issue (a copy elsewhere is not); the newest is the ledger.
  const repository = `${where.owner}/${where.repo}`
  const ledgers = issues.map(i => readDashboardState(i.body, where.signer, repository, i.number))
  const found = ledgers
    .filter(l => l.ok)
    .sort((a, b) => (b.ledger.writtenAt ?? 0) - (a.ledger.writtenAt ?? 0))[0]
  const project = found?.ok ? found.ledger.projects[where.projectId] : undefined
  if (!project) {
    const why = !issues.length
      ? `no issue labelled ${DASHBOARD_LABEL}`
      : found?.ok
        ? `its ledger has no changes of project ${where.projectId}`
        : ledgers.some(l => !l.ok && l.why === 'newer')
          ? "its ledger was written by a newer version of the action; update this workflow's 'uses:' pin to that version"
          : ledgers.some(l => !l.ok && l.why === 'unsigned')
            ? 'its ledger is not signed with this API key'
            : 'no ledger could be read from it'
    read.notices.push(
      `No ledger of documented changes (${why}): the pull requests merged into the default branch since the start of changes-since were read instead; direct pushes are not among them.`
    )
    return undefined
  }
  const all = [...project.jobs.flatMap(j => j.changes), ...(project.waiting?.changes ?? [])]
  const seen = new Set<string>()
  const unique = all.filter(c => {
    const key = c.pr !== undefined ? `#${c.pr}` : c.sha
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  if (unique.length > MAX_CHANGES)
    read.notices.push(
      `The ledger lists ${unique.length} changes: the newest ${MAX_CHANGES} were read, ${counted(unique.length - MAX_CHANGES, 'older change')} left out.`
    )
  return unique.slice(-MAX_CHANGES)
}

/**
 * The diff excerpts of the changes merged inside the analytics range, one request each: direct
 * pushes first (GraphQL gives them no file list, so their diff is all there is to match), then the
 * newest pull requests.
 */
async function readDiffs(github: GitHubApi, window: MergeWindow, read: ChangesRead): Promise<void> {
  const push = (c: ChangeText): number => (c.pr === undefined ? 0 : 1)
  const inside = read.changes
    .filter(c => (window.from === undefined || c.mergedAt >= window.from) && c.mergedAt < window.to)
    .sort((a, b) => push(a) - push(b) || b.mergedAt - a.mergedAt)
  if (inside.length > MAX_DIFFS)
    read.notices.push(
      `${inside.length} changes merged in the analytics range: the diffs of ${MAX_DIFFS} were read (direct pushes first, then the newest), the others are matched on their title, description and file paths.`
    )
  for (const change of inside.slice(0, MAX_DIFFS)) {
    try {
      read.requests++
      const files = await firstFiles(github, change)
      change.diff = diffExcerpt(files)
      if (change.files.length === 0) change.files = files.map(f => f.path)
    } catch (error) {
      read.notices.push(
        `${gitHubTrouble(`read the diff of ${changeName(change)}`, error)} It is matched without it.`
      )
    }
  }
}

async function firstFiles(github: GitHubApi, change: ChangeText): Promise<ChangedFile[]> {
  if (change.pr !== undefined) {
    for await (const page of github.pullFilePages(change.pr, DIFF_FILES)) return page
    return []
  }
  return change.sha ? github.commitFiles(change.sha, 1, DIFF_FILES) : []
}

/** The added and removed lines of the patches, file by file, up to MAX_DIFF_CHARS. */
export function diffExcerpt(files: readonly ChangedFile[]): string {
  let out = ''
  for (const file of files) {
    const lines = stripInvisible(file.patch ?? '')
      .split('\n')
      .filter(l => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l))
    for (const line of [file.previousPath ?? '', ...lines]) {
      if (!line) continue
      if (out.length + line.length + 1 > MAX_DIFF_CHARS) return out
      out += `${line}\n`
    }
  }
  return out
}

/** `#123`, or a pushed commit's short sha. */
export const changeName = (c: { pr?: number; sha?: string }): string =>
  c.pr !== undefined ? `#${c.pr}` : (c.sha ?? '').slice(0, 7)

function gitHubTrouble(what: string, error: unknown): string {
  const why = describeGitHubError(error)
  return refusedAccess(error)
    ? `GitHub refused to ${what} (${why}). ${permissionHint(GITHUB_GRANT)}`
    : `Could not ${what} (${why}).`
}
