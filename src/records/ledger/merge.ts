import {
  type Ledger,
  MAX_WRITERS,
  type ProjectLedger,
  type RunEntry,
  emptyProject
} from './format.js'
import { utcDay } from './starts.js'

/**
 * Two states of one ledger, written by runs that overlapped, made one. GitHub has no conditional
 * write for an issue's body, so a run that read the dashboard before another run wrote it would
 * otherwise write its decision over that run's job.
 *
 * `latest` (the newest body, another run's) is the base, as that run fitted it: what it moved into
 * the counts of older runs and jobs stays there. Of `ours` (the state this run holds), only what
 * this run itself added (`added`, see addedItems) is put back where `latest` lacks it: its jobs by
 * id, its run entries, and the start recorded with each (`max-jobs` counts them). Besides, each
 * repository's newest watermark, the newest last documented commit and the earliest time a
 * repository began to wait unread are kept, whichever run wrote them. What cannot be told apart
 * item by item (the waiting batch, the uncertain requests, each job's fields) is `latest`'s: the
 * run's own change is made to it again (see Dashboard.write).
 */
export function mergedLedger(
  latest: Ledger,
  ours: Ledger,
  added: Readonly<Record<string, AddedItems>>
): Ledger {
  const merged = structuredClone(latest)
  for (const [id, project] of Object.entries(ours.projects)) {
    const into = (merged.projects[id] ??= emptyProject())
    mergeProject(into, project, added[id])
  }
  merged.version = Math.max(latest.version ?? 0, ours.version ?? 0) || undefined
  merged.writtenAt = Math.max(latest.writtenAt ?? 0, ours.writtenAt ?? 0) || undefined
  // Both runs' identities wrote it: the edits of either are the action's.
  const writers = [...new Set([...(ours.writers ?? []), ...(latest.writers ?? [])])]
  if (writers.length) merged.writers = writers.slice(-MAX_WRITERS)
  return merged
}

/**
 * What one run added to a project's part, told apart item by item: new jobs (their ids), new run
 * entries (runKey) and new starts, each start with the run entry recorded with it when there is
 * one. Two starts in the same millisecond are two starts: the entry tells them apart.
 */
export interface AddedItems {
  jobs: string[]
  runs: string[]
  starts: { at: number; entry?: string }[]
}

export const noItems = (): AddedItems => ({ jobs: [], runs: [], starts: [] })

/** What `after` holds that `before` did not: the items a change added (see AddedItems). */
export function addedItems(before: ProjectLedger | undefined, after: ProjectLedger): AddedItems {
  const jobs = new Set(before?.jobs.map(j => j.id))
  const runs = new Set(before?.runs.map(runKey))
  const newRuns = after.runs.filter(r => !runs.has(runKey(r)))
  const starts = counts(before?.spend ?? [])
  const newStarts: number[] = []
  for (const at of after.spend) {
    const left = starts.get(at) ?? 0
    if (left > 0) starts.set(at, left - 1)
    else newStarts.push(at)
  }
  // Each new start goes with a new run entry of the same time, one each, when there is one.
  const entries = newRuns.map(r => ({ at: r.at, key: runKey(r), used: false }))
  return {
    jobs: after.jobs.filter(j => !jobs.has(j.id)).map(j => j.id),
    runs: newRuns.map(runKey),
    starts: newStarts.map(at => {
      const entry = entries.find(e => !e.used && e.at === at)
      if (!entry) return { at }
      entry.used = true
      return { at, entry: entry.key }
    })
  }
}

/** Both lists of items, one after the other. */
export const joinedItems = (a: AddedItems, b: AddedItems): AddedItems => ({
  jobs: [...a.jobs, ...b.jobs],
  runs: [...a.runs, ...b.runs],
  starts: [...a.starts, ...b.starts]
})

/** The items `latest` lacks: none when it holds all of them. */
export function lackedItems(latest: ProjectLedger | undefined, items: AddedItems): AddedItems {
  const jobs = new Set(latest?.jobs.map(j => j.id))
  const runs = new Set(latest?.runs.map(runKey))
  // A start is held when the entry recorded with it is; one without an entry, by its time, once.
  const loose = counts(latest?.spend ?? [])
  return {
    jobs: items.jobs.filter(id => !jobs.has(id)),
    runs: items.runs.filter(key => !runs.has(key)),
    starts: items.starts.filter(start => {
      if (start.entry !== undefined) return !runs.has(start.entry)
      const left = loose.get(start.at) ?? 0
      loose.set(start.at, left - 1)
      return left <= 0
    })
  }
}

/**
 * `latest` holds none of the items (and there are some): it was written from a state read before
 * they were added.
 */
export function holdsNone(latest: ProjectLedger | undefined, items: AddedItems): boolean {
  const lacked = lackedItems(latest, items)
  return (
    !noneAdded(items) &&
    lacked.jobs.length === items.jobs.length &&
    lacked.runs.length === items.runs.length &&
    lacked.starts.length === items.starts.length
  )
}

export const noneAdded = (items: AddedItems): boolean =>
  !items.jobs.length && !items.runs.length && !items.starts.length

function mergeProject(
  project: ProjectLedger,
  ours: ProjectLedger,
  added: AddedItems | undefined
): void {
  const lacked = lackedItems(project, added ?? noItems())
  const jobs = new Set(lacked.jobs)
  project.jobs.push(...structuredClone(ours.jobs.filter(j => jobs.has(j.id))))
  project.jobs.sort((a, b) => a.startedAt - b.startedAt)
  const runs = new Set(lacked.runs)
  project.runs.push(...structuredClone(ours.runs.filter(r => runs.has(runKey(r)))))
  project.runs.sort((a, b) => a.at - b.at)
  // Starts are counts: one held by neither state's twin is added, and counted on its day.
  for (const { at } of lacked.starts) {
    project.spend.push(at)
    const days = (project.startsByDay ??= {})
    days[utcDay(at)] = (days[utcDay(at)] ?? 0) + 1
  }
  project.spend.sort((a, b) => a - b)
  if (ours.documented && (project.documented?.at ?? -1) < ours.documented.at)
    project.documented = { ...ours.documented }
  mergeWatermarks(project, ours)
  mergeUnread(project, ours)
}

/**
 * Each repository's newest watermark. A repository (its node id) recorded under two keys was
 * renamed (setWatermark moves it to its new name): only the newer of the two stays, so an old name
 * one run dropped is not put back by another.
 */
function mergeWatermarks(project: ProjectLedger, ours: ProjectLedger): void {
  for (const [key, mark] of Object.entries(ours.repositories ?? {})) {
    const marks = (project.repositories ??= {})
    const other = mark.id
      ? Object.entries(marks).find(([k, m]) => k !== key && m.id === mark.id)
      : undefined
    if (other) {
      if (other[1].at >= mark.at) continue
      delete marks[other[0]]
    }
    if ((marks[key]?.at ?? -1) < mark.at) marks[key] = { ...mark }
  }
}

/**
 * The repositories waiting to be read, from the earliest run that said so; none that has a
 * watermark now (read since).
 */
function mergeUnread(project: ProjectLedger, ours: ProjectLedger): void {
  for (const [key, entry] of Object.entries(ours.unread ?? {})) {
    if (project.repositories?.[key]) continue
    const unread = (project.unread ??= {})
    if ((unread[key]?.since ?? Infinity) > entry.since) unread[key] = { ...entry }
  }
}

const counts = (values: readonly number[]): Map<number, number> => {
  const map = new Map<number, number>()
  for (const v of values) map.set(v, (map.get(v) ?? 0) + 1)
  return map
}

/** A run entry's identity: its run, step and time; its result changes as the run goes on. */
const runKey = (r: RunEntry): string => `${r.run}/${r.step}/${r.at}/${r.job ?? ''}`
