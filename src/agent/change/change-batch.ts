import type { ChangedFile } from '../../github/api.js'
import {
  type GraphQL,
  type History,
  MAX_PULLS,
  type PullDetails,
  readHistory,
  readPulls
} from '../../github/history.js'
import type { BatchCommit, BatchPull, ChangeBatch, ChangedPath } from '../batch.js'

/** What reading a batch needs of GitHub: GraphQL, and the REST file pages of a commit. */
export interface ChangeSource {
  graphql: GraphQL
  /** One page of a commit's files, with patches (REST pages them). */
  commitFiles(sha: string, page: number, perPage: number): Promise<ChangedFile[]>
  /** A pull request's files with patches, a page at a time, read only as far as asked. */
  pullFilePages(pull: number, perPage: number): AsyncIterable<ChangedFile[]>
}

/** Commits pushed without a pull request whose files are read; the rest are described by message. */
const MAX_COMMITS_WITH_FILES = 5
/** A commit's files per request: small pages, so a page of 1 MB patches stays small in memory. */
export const FILES_PER_PAGE = 30
const COMMIT_FILE_PAGES = 3

export interface RangeWhere {
  owner: string
  repo: string
  branch: string
  head: string
  /** The last documented commit; none for a new branch's first push (its head commit alone). */
  base?: string
  /** Without a base: the commits made since this time (epoch ms), rather than the head alone. */
  after?: number
  /** Commits read at most. */
  maxCommits: number
  /** The pull request the event is about, when GitHub may not have linked its merge commit yet. */
  pull?: number
  serverUrl: string
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
    after: where.base ? undefined : where.after,
    base: where.branch,
    max: where.base || where.after !== undefined ? where.maxCommits : 1
  })
  const leftOut: string[] = []
  if (!where.base && where.after !== undefined && !history.reachedSince)
    leftOut.push(`the commits before the newest ${history.commits.length} of the window`)
  if (where.base && !history.reachedSince)
    leftOut.push(
      `the commits before the newest ${history.commits.length} (the last documented commit ${where.base.slice(0, 12)} is further back, or no longer on ${where.branch})`
    )
  const numbers: number[] = []
  for (const c of history.commits) if (c.pull && !numbers.includes(c.pull)) numbers.push(c.pull)
  if (where.pull && !numbers.includes(where.pull) && history.commits.some(c => !c.pull))
    numbers.push(where.pull)
  if (numbers.length > MAX_PULLS)
    leftOut.push(
      `${numbers.length - MAX_PULLS} older pull requests (${numbers
        .slice(MAX_PULLS)
        .map(n => `#${n}`)
        .join(', ')})`
    )
  const details = await readPulls(source.graphql, where, numbers.slice(0, MAX_PULLS))
  // A merge commit GitHub has not linked yet is the event's own pull request's.
  const linked = new Set(details.keys())
  const direct = history.commits.filter(
    c =>
      !c.pull &&
      !(where.pull && linked.has(where.pull) && c.sha === details.get(where.pull)?.mergeCommit)
  )
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
  const oldest = history.commits[history.commits.length - 1]
  return {
    reachedBase: history.reachedSince,
    batch: {
      repository: `${where.owner}/${where.repo}`,
      branch: where.branch,
      url:
        where.base && history.reachedSince
          ? `${where.serverUrl}/${where.owner}/${where.repo}/compare/${where.base.slice(0, 12)}...${where.head.slice(0, 12)}`
          : `${where.serverUrl}/${where.owner}/${where.repo}/commit/${oldest?.sha ?? where.head}`,
      head: where.head,
      base: where.base,
      pulls: [...details.values()].reverse().map(asBatchPull),
      commits: commits.reverse(),
      skipped: [],
      leftOut
    }
  }
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

/** A commit's files in small pages, patches dropped as each page is read. */
async function readCommitFiles(
  source: ChangeSource,
  sha: string
): Promise<{ files: ChangedPath[]; complete: boolean }> {
  const files: ChangedPath[] = []
  for (let page = 1; page <= COMMIT_FILE_PAGES; page++) {
    const batch = await source.commitFiles(sha, page, FILES_PER_PAGE)
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
