import { counted } from '../runner/text.js'
import type { ChangeBatch, HistoryStep } from '../agent/batch.js'
import { type Described, describedChanges } from './change-prompt.js'

/** Rounds of cutting: each leaves out at least one change, and fewer changes get more room. */
const MAX_ROUNDS = 8

/**
 * A batch of one repository cut to what one prompt describes. The description's byte cap leaves
 * out its tail; the last documented commit must not move past a change no prompt described. With
 * a ledger, the range is cut where its oldest undescribed change begins: the head moves there, and
 * the rest is the backlog the next runs take, oldest first. Without one (`newest`), no later run
 * takes anything: the oldest changes are dropped instead, and named as left out.
 */
export function fitBatch(batch: ChangeBatch, newest = false): ChangeBatch {
  let fitted = batch
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const described = describedChanges(fitted).get(fitted.repository) ?? { pulls: 0, commits: 0 }
    if (described.pulls >= fitted.pulls.length && described.commits >= fitted.commits.length) break
    const next = newest ? dropOldest(fitted, described) : cutToDescribed(fitted, described)
    if (!next || next === fitted) break
    fitted = next
  }
  if (fitted === batch) return fitted
  const gone = changeCount(batch) - changeCount(fitted)
  const words = newest
    ? `${counted(gone, 'older change')} of the range, beyond what one prompt holds (no dashboard keeps them for a later run: send them with a prompt)`
    : `${counted(gone, 'newer change')} beyond what one prompt holds: the next runs take them, oldest first`
  return {
    ...fitted,
    leftOut: [...fitted.leftOut, words],
    ...(newest ? {} : { backlog: (batch.backlog ?? 0) + gone })
  }
}

const changeCount = (batch: Pick<ChangeBatch, 'pulls' | 'commits'>): number =>
  batch.pulls.length + batch.commits.length

/** How a history step names its change: its pull request, or the commit pushed on its own. */
const changeKey = (step: HistoryStep): string =>
  step.pull === undefined ? step.sha : `#${step.pull}`

/**
 * The batch cut to the oldest part of its range whose changes were all described (`described`:
 * how many of its pull requests and commits, oldest first), never inside a pull request: its head
 * is the newest commit of that part. Undefined when there is no history to cut by, or the cut
 * would leave nothing (the caller keeps the batch, so that every run makes progress).
 */
export function cutToDescribed(batch: ChangeBatch, described: Described): ChangeBatch | undefined {
  const history = batch.history
  if (!history?.length) return undefined
  const told = new Set([
    ...batch.pulls.slice(0, described.pulls).map(p => `#${p.number}`),
    ...batch.commits.slice(0, described.commits).map(c => c.sha)
  ])
  const listed = new Set([
    ...batch.pulls.map(p => `#${p.number}`),
    ...batch.commits.map(c => c.sha)
  ])
  const oldestFirst = [...history].reverse()
  const lastOf = new Map<number, number>()
  oldestFirst.forEach((c, i) => c.pull !== undefined && lastOf.set(c.pull, i))
  let reach = -1
  let cut = 0
  for (const [n, step] of oldestFirst.entries()) {
    const key = changeKey(step)
    // A change the rules left out, or a merge commit of a listed pull request, needs no words.
    if (listed.has(key) && !told.has(key)) break
    reach = Math.max(reach, step.pull === undefined ? n : (lastOf.get(step.pull) ?? n))
    if (reach === n) cut = n + 1
  }
  if (cut === 0) return undefined
  if (cut === oldestFirst.length) return batch
  const taken = oldestFirst.slice(0, cut)
  const keys = new Set(taken.map(changeKey))
  const shas = new Set(taken.map(s => s.sha))
  const ranged = new Set(history.map(s => s.sha))
  const head = (taken[taken.length - 1] as HistoryStep).sha
  return {
    ...batch,
    head,
    url: batch.base ? batch.url.replace(/\.\.\.[0-9a-f]+$/, `...${head.slice(0, 12)}`) : batch.url,
    pulls: batch.pulls.filter(p => keys.has(`#${p.number}`)),
    commits: batch.commits.filter(c => keys.has(c.sha)),
    // What the rules left out past the cut is judged again by the run that reads it.
    skipped: batch.skipped.filter(s => shas.has(s.sha) || !ranged.has(s.sha)),
    history: taken.reverse()
  }
}

/**
 * The batch without its oldest changes, as many as the description left out: the newest are what
 * a run without a ledger describes. Its head stays.
 */
function dropOldest(batch: ChangeBatch, described: Described): ChangeBatch | undefined {
  const over = changeCount(batch) - described.pulls - described.commits
  const history = batch.history
  if (over <= 0 || !history?.length) return undefined
  const listed = new Set([
    ...batch.pulls.map(p => `#${p.number}`),
    ...batch.commits.map(c => c.sha)
  ])
  const dropped = new Set<string>()
  for (const step of [...history].reverse()) {
    if (dropped.size >= over) break
    if (listed.has(changeKey(step))) dropped.add(changeKey(step))
  }
  const kept = {
    ...batch,
    pulls: batch.pulls.filter(p => !dropped.has(`#${p.number}`)),
    commits: batch.commits.filter(c => !dropped.has(c.sha))
  }
  return changeCount(kept) ? kept : undefined
}
