import type { ChangeBatch, RepositoryPart } from '../agent/batch.js'
import { describedChanges } from './change-prompt.js'

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
 * Each cut repository keeps its described oldest pull requests, its watermark moving to the newest
 * one's merge commit; one with commits pushed without a pull request (their order among the merges
 * is not known here) or with nothing described keeps none, its watermark staying. The first
 * repository with changes always keeps what was described, so that every run makes progress.
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
  const keep = new Map<string, { pulls: number; head?: string }>()
  let changed = false
  for (const part of cut) {
    const own = ownCount(batch, part.name)
    const seen = described.get(part.name) ?? { pulls: 0, commits: 0 }
    const pulls = batch.pulls.filter(p => p.repository === part.name)
    const newest = seen.pulls > 0 ? pulls[seen.pulls - 1]?.mergeCommit : undefined
    if (own.commits === 0 && newest) keep.set(part.name, { pulls: seen.pulls, head: newest })
    else if (part !== first) keep.set(part.name, { pulls: 0 })
    else continue
    changed = true
  }
  if (!changed) return batch
  const kept = <T extends { repository?: string }>(list: readonly T[], pulls: boolean): T[] => {
    const index = new Map<string, number>()
    return list.filter(change => {
      const rule = change.repository === undefined ? undefined : keep.get(change.repository)
      if (!rule) return true
      const n = index.get(change.repository as string) ?? 0
      index.set(change.repository as string, n + 1)
      return pulls && n < rule.pulls
    })
  }
  const pulls = kept(batch.pulls, true)
  const commits = kept(batch.commits, false)
  const parts = (batch.parts ?? []).flatMap(part => {
    const rule = keep.get(part.name)
    if (!rule) return [part]
    if (rule.head) return [{ ...part, head: rule.head }]
    // Nothing of it described: its watermark stays (none is recorded on a first look).
    const from = part.base ?? part.start
    return from ? [{ ...part, head: from }] : []
  })
  return { ...batch, pulls, commits, parts }
}
