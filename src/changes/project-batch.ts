import {
  type GitHubApi,
  describeGitHubError,
  isGitHubCallError,
  refusedAccess
} from '../github/api.js'
import { type RepositoryHead, defaultBranchHeads } from '../github/history.js'
import type { RunEvent } from '../github/event.js'
import type { GitHubSession } from '../github/session.js'
import type { ChangeRef, ProjectLedger, Watermark } from '../records/ledger.js'
import type { Clock } from '../runner/clock.js'
import { ExplainedError, errorText } from '../runner/errors.js'
import type { Logger } from '../runner/logger.js'
import { counted } from '../runner/text.js'
import type { BatchCommit, BatchPull, ChangeBatch, RepositoryPart } from '../agent/batch.js'
import { type CodeRepository, repositoryKey } from '../policy/code-repositories.js'
import { Input, Key } from '../agent/names.js'
import type { ChangeSettings } from '../agent/settings.js'
import { ChangeReader, ReadError, type ReaderSettings } from './change-reader.js'
import { fitProjectBatch } from './project-fit.js'
import { namesOf, watermarkOf } from '../agent/ledger/watermarks.js'
import { type ChangeRules, applyRules, batchSize } from './change-rules.js'
import type { GateReads } from './gates/gate.js'

/** What reading a docs project's repositories needs of the run. */
export interface ProjectReadDeps {
  settings: ReaderSettings &
    Pick<ChangeSettings, 'codeRepositories' | 'since' | 'paths' | 'codeToken'> & {
      githubToken: string
    }
  event: RunEvent
  deps: { log: Logger; clock: Clock; session: GitHubSession; signal?: AbortSignal }
  project: ProjectLedger
  /**
   * The changes of uncertain requests a writer ticked to send again: each repository reads its
   * own again, and no watermark moves.
   */
  resent?: readonly ChangeRef[]
  /** The rules every repository's changes go through; `paths` is each repository's own. */
  rules: ChangeRules
  notices: string[]
}

/** The batch of a docs project, and how to describe it to the agent (each repository's patches). */
export type ProjectRead = { skip: string } | { batch: ChangeBatch; reads: GateReads }

/**
 * `code-repositories`: every listed repository's merges since its own watermark, read one
 * repository after the other and grouped into one batch (the pull requests and commits name their
 * repository). Every repository's head is read in one request; a repository with news costs its
 * history and its pull requests besides. One that cannot be read is a warning naming it and what
 * to grant: its watermark stays, and a run that can read it takes its changes; the others go on.
 */
export async function readProjectBatch(read: ProjectReadDeps): Promise<ProjectRead> {
  const { settings, deps } = read
  const repositories = settings.codeRepositories ?? []
  const parts: { part: RepositoryPart; batch?: ChangeBatch; reader: ChangeReader }[] = []
  const failed: string[] = []
  const token = tokenInput(settings)
  const connections = repositories.map(r => connect(read, r))
  const heads = await readHeads(read, repositories, connections[0])
  for (const [i, repository] of repositories.entries()) {
    const head = heads[i] as RepositoryHead
    // Changes sent again are named as they were sent: under a renamed repository's old name too.
    const mark = 'missing' in head ? undefined : watermarkOf(read.project, repository.name, head.id)
    const names = namesOf(repository.name, mark?.mark)
    const own = read.resent?.filter(c => c.repo && names.has(repositoryKey(c.repo)))
    if (own && !own.length) continue
    if ('missing' in head) {
      failed.push(repository.name)
      deps.log.warning(unreadable(repository.name, head.missing, head.refused, token))
      continue
    }
    if (head.name && repositoryKey(head.name) !== repositoryKey(repository.name))
      read.notices.push(
        `GitHub names ${repository.name} ${head.name} now (renamed): list it as ${head.name} in '${Key.CodeRepositories}'. Its last documented commit follows it.`
      )
    const github = connections[i] as GitHubApi
    const rules = { ...read.rules, paths: repository.paths ?? settings.paths }
    const reader = new ChangeReader(settings, read.event, deps, github, rules, repository)
    try {
      parts.push({
        ...(own
          ? await readResent(read, repository, reader, own, { ...head, mark: mark?.mark })
          : await readRepository(read, repository, reader, head)),
        reader
      })
    } catch (error) {
      if (deps.signal?.aborted) throw error
      failed.push(repository.name)
      const refused = error instanceof ReadError && error.refused
      const why = error instanceof ReadError ? error.why : errorText(error)
      deps.log.warning(unreadable(repository.name, why, refused, token))
    }
  }
  if (!parts.length && read.resent && !failed.length)
    return { skip: 'None of the changes to send again names a code repository this run lists.' }
  if (!parts.length)
    throw new ExplainedError(
      `Could not read any of the ${counted(repositories.length, 'code repository', 'code repositories')} of '${Key.CodeRepositories}' (${failed.join(', ')}): nothing was started. ${grantAll(token)}`
    )
  const firstLook = parts.some(p => !watermarkOf(read.project, p.part.name, p.part.id))
  if (!parts.some(p => p.batch) && !firstLook)
    return {
      skip: `Everything ${counted(parts.length, 'code repository', 'code repositories')} merged is documented already${failed.length ? ` (${failed.join(', ')} could not be read)` : ''}.`
    }
  // Those never read wait: the ledger notes since when, and their first look reads from then.
  const unread = failed.filter(name => !watermarkOf(read.project, name))
  const batch = {
    ...fitProjectBatch(joinParts(read.event, parts)),
    listed: repositories.map(r => repositoryKey(r.name)),
    ...(unread.length ? { unread } : {})
  }
  // Any reader describes the batch: only the patches are each repository's own.
  const describer = (parts[0] as (typeof parts)[number]).reader
  return {
    batch,
    reads: {
      prompt: async (handed, followUp) => {
        const patches = settings.includeDiff
          ? await projectPatches(parts, handed, deps, token)
          : undefined
        return describer.prompt(handed, followUp, patches)
      },
      // The repositories' watermarks are their own: no range of the project starts before one.
      parentOf: async () => undefined,
      emptyBatch: (head, branch) => ({
        ...describer.emptyBatch(head, branch),
        parts: [],
        listed: batch.listed
      })
    }
  }
}

/** A code repository's connection, with `code-token` or `github-token`; no request yet. */
function connect(read: ProjectReadDeps, repository: CodeRepository): GitHubApi {
  const { settings, event, deps } = read
  return deps.session.repository(
    settings.codeToken || settings.githubToken,
    { owner: repository.owner, repo: repository.repo, apiUrl: event.apiUrl },
    tokenInput(settings)
  )
}

/**
 * Every repository's head in one request: a run costs one read however many repositories have
 * nothing new. When the request itself fails, no repository can be read.
 */
async function readHeads(
  read: ProjectReadDeps,
  repositories: readonly CodeRepository[],
  github: GitHubApi | undefined
): Promise<RepositoryHead[]> {
  if (!github) return []
  try {
    return await defaultBranchHeads(github.graphql, repositories)
  } catch (error) {
    if (read.deps.signal?.aborted) throw error
    const why = isGitHubCallError(error) ? describeGitHubError(error) : errorText(error)
    const refused = refusedAccess(error)
    return repositories.map(() => ({ missing: why.replace(/\s+/g, ' ').slice(0, 300), refused }))
  }
}

/**
 * One repository's share: nothing new (its head is its watermark), a first look (its head is
 * recorded, or with `since` the window's merges are read), or its merges since its watermark,
 * through the rules.
 */
async function readRepository(
  read: ProjectReadDeps,
  repository: CodeRepository,
  reader: ChangeReader,
  head: { sha: string; branch: string; id?: string }
): Promise<{ part: RepositoryPart; batch?: ChangeBatch }> {
  const { settings, project, notices, deps } = read
  // Under its name, or its old name's after a rename: GitHub's node id stays.
  const mark = watermarkOf(project, repository.name, head.id)?.mark
  // The jobs name the changes sent before a rename under its old name.
  const names = namesOf(repository.name, mark)
  const part = (base: string | undefined, url: string): RepositoryPart => ({
    name: repository.name,
    branch: head.branch,
    head: head.sha,
    ...(base ? { base } : {}),
    url,
    ...(head.id ? { id: head.id } : {})
  })
  const waited = mark ? undefined : project.unread?.[repositoryKey(repository.name)]
  const windowFrom = waited
    ? Math.min(waited.since, settings.since ? deps.clock.wallNow() - settings.since.ms : Infinity)
    : settings.since && deps.clock.wallNow() - settings.since.ms
  if (mark?.sha === head.sha) return { part: part(head.sha, '') }
  let batch: ChangeBatch
  if (mark)
    batch = withoutDocumented(
      await reader.ledgerBatch(
        { kind: 'since-last' },
        head,
        mark.sha,
        notices,
        mark.at || undefined
      ),
      names,
      project
    )
  else if (windowFrom) {
    if (waited)
      notices.push(
        `${repository.name} can be read now: its merges since ${new Date(waited.since).toISOString().slice(0, 16).replace('T', ' ')} UTC, when a run first found it out of reach, are read, as the warning said.`
      )
    // A repository listed before, whose record is gone: what the ledger's jobs hold is not sent again.
    batch = withoutDocumented(
      await reader.readWindow(head.sha, head.branch, windowFrom),
      names,
      project
    )
  } else {
    notices.push(
      `First look at ${repository.name}: its newest commit ${head.sha.slice(0, 12)} on ${head.branch} is recorded as documented; what it merges next is documented. (Set '${Key.Since}' to read back further.)`
    )
    return { part: part(head.sha, reader.emptyBatch(head.sha, head.branch).url) }
  }
  // Its head is older than its watermark (the branch was reset back): nothing new, and the
  // watermark never moves backwards.
  if (mark && batch.olderThanDocumented) return { part: { ...part(mark.sha, ''), head: mark.sha } }
  const ruled = applyRules(batch, {
    ...read.rules,
    paths: repository.paths ?? settings.paths
  })
  // A window's start: the commit before its oldest, where a waiting batch's range begins.
  const start =
    !mark && batch.oldest ? await reader.parentOf({ ...batch, head: batch.oldest }) : undefined
  // Beyond one run's bounds the range stops early: the watermark moves to where it stopped.
  return {
    part: {
      ...part(mark?.sha, ruled.url),
      head: ruled.head,
      ...(start ? { start } : {}),
      ...(ruled.history ? { history: ruled.history } : {})
    },
    batch: ruled
  }
}

/**
 * A repository's batch without the changes the ledger's jobs and uncertain requests hold already:
 * after a rewritten history its merges are read again from a time, and some were documented.
 * `names` are the repository's, as keys: now and before a rename.
 */
function withoutDocumented(
  batch: ChangeBatch,
  names: ReadonlySet<string>,
  project: ProjectLedger
): ChangeBatch {
  const known = [...project.jobs, ...project.uncertain]
    .flatMap(j => j.changes)
    .filter(c => c.repo && names.has(repositoryKey(c.repo)))
  if (!known.length) return batch
  const pulls = new Set(known.flatMap(c => (c.pr === undefined ? [] : [c.pr])))
  const shas = new Set(known.map(c => c.sha))
  return {
    ...batch,
    pulls: batch.pulls.filter(p => !pulls.has(p.number)),
    commits: batch.commits.filter(c => !shas.has(c.sha))
  }
}

/** A repository's changes sent again: read again by number or commit; its watermark stays. */
async function readResent(
  read: ProjectReadDeps,
  repository: CodeRepository,
  reader: ChangeReader,
  changes: readonly ChangeRef[],
  { branch: headBranch, id, mark }: { branch: string; id?: string; mark?: Watermark }
): Promise<{ part: RepositoryPart; batch: ChangeBatch }> {
  const branch = mark?.branch ?? headBranch
  const at = mark?.sha ?? ''
  const batch = await reader.resentBatch([...changes], at, branch)
  const paths = repository.paths ?? read.settings.paths
  return {
    part: {
      name: repository.name,
      branch,
      head: at,
      ...(at ? { base: at } : {}),
      ...(id ? { id } : {}),
      url: ''
    },
    batch: applyRules(batch, { ...read.rules, paths })
  }
}

/** The repositories' batches as one, each change naming its repository. */
function joinParts(
  event: RunEvent,
  parts: readonly { part: RepositoryPart; batch?: ChangeBatch }[]
): ChangeBatch {
  const pulls: BatchPull[] = []
  const commits: BatchCommit[] = []
  const joined: ChangeBatch = {
    repository: `${event.owner}/${event.repo}`,
    branch: '',
    url: '',
    head: '',
    pulls,
    commits,
    skipped: [],
    leftOut: [],
    parts: parts.map(p => p.part)
  }
  for (const { part, batch } of parts) {
    if (!batch) continue
    const repository = part.name
    pulls.push(...batch.pulls.map(p => ({ ...p, repository })))
    commits.push(...batch.commits.map(c => ({ ...c, repository })))
    joined.skipped.push(
      ...batch.skipped.map(s => ({
        ...s,
        ref: `${repository}${s.ref.startsWith('#') ? '' : '@'}${s.ref}`
      }))
    )
    joined.leftOut.push(...batch.leftOut.map(l => `${repository}: ${l}`))
    if (batch.backlog) joined.backlog = (joined.backlog ?? 0) + batch.backlog
    if (!joined.url && (batch.pulls.length || batch.commits.length)) joined.url = batch.url
  }
  return joined
}

/** Each repository's patches for the diff excerpt, its name before each path. */
async function projectPatches(
  parts: readonly { part: RepositoryPart; reader: ChangeReader }[],
  batch: ChangeBatch,
  deps: ProjectReadDeps['deps'],
  token: string
): Promise<{ path: string; patch: string }[]> {
  const all: { path: string; patch: string }[] = []
  for (const { part, reader } of parts) {
    const own = {
      ...batch,
      pulls: batch.pulls.filter(p => p.repository === part.name),
      commits: batch.commits.filter(c => c.repository === part.name)
    }
    if (!own.pulls.length && !own.commits.length) continue
    let patches: { path: string; patch: string }[]
    try {
      patches = await reader.patches(own)
    } catch (error) {
      if (deps.signal?.aborted || !(error instanceof ReadError)) throw error
      // The patches are an excerpt: without one repository's, its changes are still described.
      deps.log.warning(
        `Could not read the patches of ${part.name} (${error.why.replace(/\.$/, '')}): its changes are described without them, and the other repositories' patches go on. ${error.refused ? `Give '${token}' contents: read and pull-requests: read on ${part.name}.` : 'A later run reads its next changes as usual.'}`
      )
      continue
    }
    all.push(...patches.map(p => ({ path: `${part.name}: ${p.path}`, patch: p.patch })))
  }
  return all
}

/** The input whose token reads the code repositories. */
const tokenInput = (settings: { codeToken?: string }): string =>
  settings.codeToken ? Input.CodeToken : Input.GithubToken

const grantAll = (token: string): string =>
  `Give '${token}' read access (contents: read, pull-requests: read) to every code repository: install the docs agent's GitHub App on each, and make its token with actions/create-github-app-token's 'owner' and no 'repositories', so that it covers them all (README, "A docs project: one site, many code repositories").`

/** The warning for a repository that could not be read: which, what GitHub said, what to grant. */
function unreadable(name: string, said: string, refused: boolean, token: string): string {
  const why = said.replace(/\s+/g, ' ').slice(0, 300)
  const grant = !refused
    ? 'Its changes wait for the next run.'
    : `Give '${token}' read access to ${name} (contents: read, pull-requests: read; with a GitHub App token, install the App on ${name}, and add ${name.split('/')[1]} to the token's 'repositories' if the workflow lists them). Its changes wait until a run can read it.`
  return `Could not read ${name} (${why.replace(/\.$/, '')}): the other code repositories go on. ${grant}`
}

/**
 * A docs project's dry run (a first install's preview with `since`): what the batch would become
 * and what it would cost, before any credit is spent. A window beyond one run's bounds says its
 * total and the runs its backlog needs, each a job of its own unless folded, and the credits scale.
 */
export function previewNotice(
  batch: ChangeBatch,
  creditsPerRun: number,
  followUpTo?: string
): string {
  const from = new Set([...batch.pulls, ...batch.commits].map(c => c.repository)).size
  const what = followUpTo ? `a follow-up to job ${followUpTo}` : 'one new job'
  const size = batchSize(batch)
  const repositories = counted(from, 'code repository', 'code repositories')
  const backlog = batch.backlog ?? 0
  if (!backlog)
    return `Preview (dry-run): ${counted(size, 'change')} from ${repositories} would go to ${what}, about ${creditsPerRun} credits ('credits-per-run', an estimate); nothing was written.`
  const later = Math.ceil(backlog / Math.max(1, size))
  const credits = (later + 1) * creditsPerRun
  return `Preview (dry-run): the window holds ${counted(size + backlog, 'change')}, more than one run takes. The first run would send ${counted(size, 'change')} from ${repositories} to ${what}; the other ${counted(backlog, 'change')} need about ${counted(later, 'more run')} (a job each, or follow-ups while a docs pull request is open), oldest first: about ${credits.toLocaleString('en-US')} credits in all (${later + 1} × ${creditsPerRun}, 'credits-per-run', an estimate); nothing was written.`
}
