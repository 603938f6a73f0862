import type { ChangedFile } from '../github/api.js'
import {
  type GraphQL,
  type History,
  type HistoryCommit,
  MAX_PULLS,
  type PullDetails,
  readHistory,
  readPulls
} from '../github/history.js'
import type { BatchCommit, BatchPull, ChangeBatch, ChangedPath } from '../agent/batch.js'

/** What reading a batch needs of GitHub: GraphQL, and the REST file pages of a commit. */
export interface ChangeSource {
  graphql: GraphQL
  /** One page of a commit's files, with patches (REST pages them): for the diff excerpt. */
  commitFiles(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** One page of a commit's files without patches, dropped as they stream in: for the file list. */
  commitPaths(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** A pull request's files with patches, a page at a time, read only as far as asked. */
  pullFilePages(pull: number, perPage: number): AsyncIterable<ChangedFile[]>
}

/** Commits pushed without a pull request whose files are read; the rest are described by message. */
const MAX_COMMITS_WITH_FILES = 5
/**
 * A commit's files per request: GitHub's most. Their patches are dropped as the answer streams in,
 * so a page of 1 MB patches costs its names only; three pages name 300 files, what GitHub's own
 * first page of a commit holds.
 */
export const FILES_PER_PAGE = 100
const COMMIT_FILE_PAGES = 3

export interface RangeWhere {
  owner: string
  repo: string
  branch: string
  head: string
  /** The last documented commit; none for a new branch's first push (its head commit alone). */
  base?: string
  /** Without a base: the commits made since this time (epoch ms), rather than the head alone. */
  from?: number
  /** Commits read at most. */
  maxCommits: number
  /** The pull request the event is about, when GitHub may not have linked its merge commit yet. */
  pull?: number
  serverUrl: string
  /**
   * No ledger keeps what a run leaves out (`dashboard: false`): a range beyond the bounds is read
   * from its newest commits, and the older ones are named as left out, for good.
   */
  newestFirst?: boolean
}

/**
 * The changes between `base` and `head`: each pull request merged into the branch once, with its
 * files, and each commit pushed without one. Three requests for a range of any length (history,
 * pull requests, and a page of files per direct commit, at most five).
 */
export async function readRange(
  source: ChangeSource,
  where: RangeWhere
): Promise<{ batch: ChangeBatch; reachedBase: boolean }> {
  const history: History = await readHistory(source.graphql, {
    owner: where.owner,
    repo: where.repo,
    head: where.head,
    since: where.base,
    from: where.base ? undefined : where.from,
    base: where.branch,
    max: where.base || where.from !== undefined ? where.maxCommits : 1,
    pages: where.base || where.from !== undefined ? HISTORY_PAGES : 1
  })
  const leftOut: string[] = []
  if (!where.base && where.from !== undefined && !history.reachedSince)
    leftOut.push(`the commits before the newest ${history.commits.length} of the window`)
  if (where.base && !history.reachedSince)
    leftOut.push(
      `the commits before the newest ${Math.min(history.commits.length, where.maxCommits)} (the last documented commit ${where.base.slice(0, 12)} is further back, or no longer on ${where.branch})`
    )
  // Oldest first: a backlog beyond one run's bounds is taken by the next runs, from where this one
  // stops, so the last documented commit never moves past a change no prompt described. Without
  // a ledger no later run takes it: the newest are read, and the older named as left out.
  if (where.newestFirst && history.reachedSince) {
    const newest = newestWithin(history.commits, where.maxCommits, MAX_PULLS)
    if (newest.older)
      leftOut.push(
        `${newest.older} older changes of the range, beyond one run's ${MAX_PULLS} pull requests and ${where.maxCommits} commits (no dashboard keeps them for a later run: send them with a prompt)`
      )
    history.commits = newest.taken
  }
  const range =
    history.reachedSince && !where.newestFirst
      ? oldestWithin(history.commits, where.maxCommits, MAX_PULLS)
      : { taken: history.commits.slice(0, where.maxCommits), backlog: 0 }
  const head = range.backlog ? (range.taken[0]?.sha ?? where.head) : where.head
  if (range.backlog)
    leftOut.push(
      `${range.backlog} newer changes, beyond one run's ${MAX_PULLS} pull requests and ${where.maxCommits} commits: the next runs take them, oldest first`
    )
  const numbers: number[] = []
  for (const c of range.taken) if (c.pull && !numbers.includes(c.pull)) numbers.push(c.pull)
  if (
    !range.backlog &&
    where.pull &&
    !numbers.includes(where.pull) &&
    range.taken.some(c => !c.pull)
  )
    numbers.push(where.pull)
  const details = await readPulls(source.graphql, where, numbers)
  // A merge commit GitHub has not linked yet is the event's own pull request's.
  const ownMerge =
    where.pull && details.has(where.pull) ? details.get(where.pull)?.mergeCommit : undefined
  const direct = range.taken.filter(c => !c.pull && c.sha !== ownMerge)
  const commits: BatchCommit[] = []
  for (const [i, c] of direct.entries()) {
    const withFiles = i < MAX_COMMITS_WITH_FILES
    const read = withFiles ? await readCommitFiles(source, c.sha) : { files: [], complete: false }
    commits.push({ ...c, files: read.files, filesComplete: read.complete })
  }
  if (direct.length > MAX_COMMITS_WITH_FILES)
    leftOut.push(
      `the files of ${direct.length - MAX_COMMITS_WITH_FILES} commits pushed without a pull request (their messages are listed)`
    )
  const oldest = range.taken[range.taken.length - 1]
  return {
    reachedBase: history.reachedSince,
    batch: {
      repository: `${where.owner}/${where.repo}`,
      branch: where.branch,
      url:
        where.base && history.reachedSince
          ? `${where.serverUrl}/${where.owner}/${where.repo}/compare/${where.base.slice(0, 12)}...${head.slice(0, 12)}`
          : `${where.serverUrl}/${where.owner}/${where.repo}/commit/${oldest?.sha ?? where.head}`,
      head,
      ...(range.backlog ? { backlog: range.backlog } : {}),
      // The event's own merge commit is its pull request's step, linked or not: a prompt that
      // leaves that pull request out cannot move the last documented commit past it.
      history: range.taken.map(c => {
        const pull = c.pull ?? (c.sha === ownMerge ? where.pull : undefined)
        return pull === undefined ? { sha: c.sha } : { sha: c.sha, pull }
      }),
      ...(!where.base && oldest ? { oldest: oldest.sha } : {}),
      base: where.base,
      pulls: [...details.values()].reverse().map(asBatchPull),
      commits: commits.reverse(),
      skipped: [],
      leftOut
    }
  }
}

/** Pages of history read back to the last documented commit: a backlog of 1,000 commits. */
const HISTORY_PAGES = 10

/**
 * The oldest commits of a range (given newest first) within one run's bounds: at most `maxCommits`
 * commits and `maxPulls` pull requests, a pull request never split. Newest first again, with the
 * count of changes (pull requests and direct commits) left for the next runs.
 *
 * A pull request merged with a merge commit brings its own commits into the history, listed before
 * its merge commit, and they may interleave with another's. The range is cut only where every
 * pull request taken is taken whole, its newest commit (the merge commit) included: the head then
 * sits on the main line, and no later run reads any of it again. When no such cut fits the bounds,
 * the first one past them is taken.
 */
export function oldestWithin(
  commits: HistoryCommit[],
  maxCommits: number,
  maxPulls: number
): { taken: HistoryCommit[]; backlog: number } {
  const oldestFirst = [...commits].reverse()
  const lastOf = new Map<number, number>()
  oldestFirst.forEach((c, i) => c.pull !== undefined && lastOf.set(c.pull, i))
  const pulls = new Set<number>()
  let cut = 0
  let reach = -1
  for (let n = 0; n < oldestFirst.length; n++) {
    const pull = oldestFirst[n]?.pull
    const within =
      n < maxCommits && (pull === undefined || pulls.has(pull) || pulls.size < maxPulls)
    // Past the bounds, only as far as the first cut that splits no pull request.
    if (!within && cut > 0) break
    if (pull !== undefined) pulls.add(pull)
    reach = Math.max(reach, pull === undefined ? n : (lastOf.get(pull) ?? n))
    if (reach === n) {
      cut = n + 1
      if (!within) break
    }
  }
  const rest = oldestFirst.slice(cut)
  const taken = oldestFirst.slice(0, cut)
  const takenPulls = new Set(taken.flatMap(c => (c.pull === undefined ? [] : [c.pull])))
  const restPulls = new Set(
    rest.flatMap(c => (c.pull === undefined || takenPulls.has(c.pull) ? [] : [c.pull]))
  )
  return {
    taken: taken.reverse(),
    backlog: restPulls.size + rest.filter(c => c.pull === undefined).length
  }
}

/**
 * The newest commits of a range (given newest first) within one run's bounds, a pull request
 * never split, and the count of older changes left out: a run without a ledger describes what was
 * pushed last.
 */
export function newestWithin(
  commits: HistoryCommit[],
  maxCommits: number,
  maxPulls: number
): { taken: HistoryCommit[]; older: number } {
  const pulls = new Set<number>()
  let n = 0
  for (; n < commits.length && n < maxCommits; n++) {
    const pull = commits[n]?.pull
    if (pull !== undefined && !pulls.has(pull)) {
      if (pulls.size >= maxPulls) break
      pulls.add(pull)
    }
  }
  const taken = commits.slice(0, n)
  const rest = commits.slice(n)
  const restPulls = new Set(
    rest.flatMap(c => (c.pull === undefined || pulls.has(c.pull) ? [] : [c.pull]))
  )
  return { taken, older: restPulls.size + rest.filter(c => c.pull === undefined).length }
}

/** One pull request on its own (not merged yet, or merged outside the ledger): one request. */
export async function readPull(
  source: ChangeSource,
  where: { owner: string; repo: string },
  number: number
): Promise<BatchPull | undefined> {
  const pull = (await readPulls(source.graphql, where, [number])).get(number)
  return pull && asBatchPull(pull)
}

function asBatchPull(pull: PullDetails): BatchPull {
  return { ...pull, filesComplete: pull.files.length >= pull.changedFiles }
}

/** A commit's files, named without their patches. */
async function readCommitFiles(
  source: ChangeSource,
  sha: string
): Promise<{ files: ChangedPath[]; complete: boolean }> {
  const files: ChangedPath[] = []
  for (let page = 1; page <= COMMIT_FILE_PAGES; page++) {
    const batch = await source.commitPaths(sha, page, FILES_PER_PAGE)
    for (const { patch: _patch, ...file } of batch) files.push(file)
    if (batch.length < FILES_PER_PAGE) return { files, complete: true }
  }
  return { files, complete: false }
}

/** Pages of patches read at most for one pull request or commit in the diff excerpt. */
const PATCH_PAGES = 3
/**
 * Files a page when reading patches: GitHub sends each patch whole (up to about 1 MB), so a page
 * costs up to this many megabytes in flight; the excerpt's budget is spent within the first page
 * or two in any case.
 */
export const PATCH_FILES_PER_PAGE = 10

/**
 * Patches for the diff excerpt, a page at a time, while `take` still wants them: reading stops as
 * soon as the excerpt's budget is spent, and only files that count (`counts`) are offered.
 */
export async function readPatches(
  source: ChangeSource,
  batch: ChangeBatch,
  counts: (path: string) => boolean,
  take: (path: string, patch: string) => 'more' | 'full'
): Promise<void> {
  /** Offers a page's patches; true when the excerpt is full. */
  const offer = (files: ChangedFile[]): boolean =>
    files.some(
      file =>
        file.patch !== undefined && counts(file.path) && take(file.path, file.patch) === 'full'
    )
  for (const pull of batch.pulls) {
    let read = 0
    // Leaving the loop leaves the rest of the pages unread.
    for await (const files of source.pullFilePages(pull.number, PATCH_FILES_PER_PAGE)) {
      if (offer(files)) return
      if (++read >= PATCH_PAGES) break
    }
  }
  for (const commit of batch.commits) {
    for (let page = 1; page <= PATCH_PAGES; page++) {
      const files = await source.commitFiles(commit.sha, page, PATCH_FILES_PER_PAGE)
      if (offer(files)) return
      if (files.length < PATCH_FILES_PER_PAGE) break
    }
  }
}
