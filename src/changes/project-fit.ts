import type { ChangeBatch, HistoryStep, RepositoryPart } from '../agent/batch.js'
import { cutToDescribed } from './batch-fit.js'
import { type Described, describedChanges } from './change-prompt.js'

/** Rounds of trimming: each leaves out at least one change, and fewer changes get more room. */
const MAX_ROUNDS = 8

/**
 * A docs project's batch cut to what one prompt describes. The description's byte cap leaves out
 * the tail (whole repositories, or a repository's newest changes); each repository's watermark
 * moves only as far as its changes were described, and what was left out is the backlog the next
 * runs take, oldest first.
 */
export function fitProjectBatch(batch: ChangeBatch): ChangeBatch {
  let fitted = batch
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const described = describedChanges(fitted)
    const cut = (fitted.parts ?? []).filter(part => {
      const own = ownCount(fitted, part.name)
      const seen = described.get(part.name) ?? { pulls: 0, commits: 0 }
      return seen.pulls < own.pulls || seen.commits < own.commits
    })
    if (!cut.length) break
    const next = cutParts(fitted, cut, described)
    if (next === fitted) break
    fitted = next
  }
  return withBacklog(batch, fitted)
}

/** What the cut left out, per repository, in words and in the backlog. */
function withBacklog(batch: ChangeBatch, fitted: ChangeBatch): ChangeBatch {
  if (fitted === batch) return batch
  const size = (b: ChangeBatch, name: string): number => {
    const own = ownCount(b, name)
    return own.pulls + own.commits
  }
  let dropped = 0
  const leftOut: string[] = []
  for (const part of batch.parts ?? []) {
    const gone = size(batch, part.name) - size(fitted, part.name)
    if (gone <= 0) continue
    dropped += gone
    leftOut.push(
      `${part.name}: ${gone} newer changes beyond what one prompt holds: the next runs take them, oldest first`
    )
  }
  return {
    ...fitted,
    leftOut: [...batch.leftOut, ...leftOut],
    backlog: (batch.backlog ?? 0) + dropped
  }
}

function ownCount(batch: ChangeBatch, name: string): { pulls: number; commits: number } {
  return {
    pulls: batch.pulls.filter(p => p.repository === name).length,
    commits: batch.commits.filter(c => c.repository === name).length
  }
}

/**
 * Each cut repository keeps the oldest part of its range that was described whole, its watermark
 * moving to that part's newest commit (batch-fit.ts). Without a history to cut by (changes sent
 * again), one of pull requests alone keeps its described oldest, its watermark on the newest
 * one's merge commit, and one with commits pushed without a pull request keeps none. A repository
 * with nothing described keeps none, its watermark staying. The first repository with changes
 * always keeps what was described, so that every run makes progress.
 */
function cutParts(
  batch: ChangeBatch,
  cut: readonly RepositoryPart[],
  described: ReadonlyMap<string, { pulls: number; commits: number }>
): ChangeBatch {
  const first = (batch.parts ?? []).find(p => {
    const own = ownCount(batch, p.name)
    return own.pulls + own.commits > 0
  })
  const keep = new Map<string, Kept>()
  for (const part of cut) {
    const seen = described.get(part.name) ?? { pulls: 0, commits: 0 }
    const rule = keptOf(ownShare(batch, part), seen)
    if (rule) keep.set(part.name, rule)
    else if (part !== first) keep.set(part.name, { pulls: new Set(), commits: new Set() })
  }
  if (!keep.size) return batch
  const kept = <T extends { repository?: string }>(list: readonly T[], id: (c: T) => string): T[] =>
    list.filter(change => {
      const rule = change.repository === undefined ? undefined : keep.get(change.repository)
      return !rule || rule.pulls.has(id(change)) || rule.commits.has(id(change))
    })
  const pulls = kept(batch.pulls, p => `#${p.number}`)
  const commits = kept(batch.commits, c => c.sha)
  const parts = (batch.parts ?? []).flatMap(part => {
    const rule = keep.get(part.name)
    if (!rule) return [part]
    if (rule.head) return [{ ...part, head: rule.head, history: rule.history }]
    // Nothing of it described: its watermark stays (none is recorded on a first look).
    const from = part.base ?? part.start
    return from ? [{ ...part, head: from }] : []
  })
  return { ...batch, pulls, commits, parts }
}

/** What a cut repository keeps: its changes by key (`#12`, a commit's sha) and its new head. */
interface Kept {
  pulls: Set<string>
  commits: Set<string>
  head?: string
  history?: HistoryStep[]
}

/** A repository's share of a project's batch, as a batch of its own. */
function ownShare(batch: ChangeBatch, part: RepositoryPart): ChangeBatch {
  return {
    repository: part.name,
    branch: part.branch,
    url: part.url,
    head: part.head,
    ...(part.base ? { base: part.base } : {}),
    pulls: batch.pulls.filter(p => p.repository === part.name),
    commits: batch.commits.filter(c => c.repository === part.name),
    skipped: [],
    leftOut: [],
    ...(part.history ? { history: part.history } : {})
  }
}

/** What a repository keeps of its described changes; undefined when it keeps nothing. */
function keptOf(own: ChangeBatch, seen: Described): Kept | undefined {
  const cut = cutToDescribed(own, seen)
  if (cut)
    return {
      pulls: new Set(cut.pulls.map(p => `#${p.number}`)),
      commits: new Set(cut.commits.map(c => c.sha)),
      head: cut.head,
      history: cut.history
    }
  const newest = seen.pulls > 0 ? own.pulls[seen.pulls - 1]?.mergeCommit : undefined
  if (own.history?.length || own.commits.length || !newest) return undefined
  return {
    pulls: new Set(own.pulls.slice(0, seen.pulls).map(p => `#${p.number}`)),
    commits: new Set(),
    head: newest
  }
}
