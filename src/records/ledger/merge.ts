import { type Ledger, MAX_WRITERS, type ProjectLedger, type RunEntry } from './format.js'

/**
 * Two states of one ledger, written by runs that overlapped, made one: what each run recorded of
 * its own is kept. GitHub has no conditional write for an issue's body, so a run that read the
 * dashboard before another run wrote it would otherwise write its decision over that run's job.
 *
 * `latest` (the newest body) is the base; of `ours` (what this run read and wrote), what can be
 * told apart item by item is added where `latest` lacks it: jobs by their id, starts (`max-jobs`),
 * run entries, each repository's newest watermark and the newest last documented commit, the
 * counts of older items at their highest. What cannot be told apart that way (the waiting batch,
 * the uncertain requests, each job's fields) is `latest`'s: the run's own change is made to it
 * afterwards.
 */
export function mergedLedger(latest: Ledger, ours: Ledger): Ledger {
  const merged = structuredClone(latest)
  for (const [id, project] of Object.entries(ours.projects)) {
    const theirs = merged.projects[id]
    merged.projects[id] = theirs ? mergedProject(theirs, project) : structuredClone(project)
  }
  merged.version = Math.max(latest.version ?? 0, ours.version ?? 0) || undefined
  merged.writtenAt = Math.max(latest.writtenAt ?? 0, ours.writtenAt ?? 0) || undefined
  // Both runs' identities wrote it: the edits of either are the action's.
  const writers = [...new Set([...(ours.writers ?? []), ...(latest.writers ?? [])])]
  if (writers.length) merged.writers = writers.slice(-MAX_WRITERS)
  return merged
}

/** What of `ours` (see mergedLedger) `latest` lacks: none when `latest` holds all of it. */
export function lacksAny(latest: Ledger, ours: Ledger): boolean {
  return Object.entries(ours.projects).some(([id, project]) => {
    const theirs = latest.projects[id]
    if (!theirs) return true
    const jobs = new Set(theirs.jobs.map(j => j.id))
    const starts = new Set(theirs.spend)
    const runs = new Set(theirs.runs.map(runKey))
    return (
      project.jobs.some(j => !jobs.has(j.id)) ||
      project.spend.some(s => !starts.has(s)) ||
      project.runs.some(r => !runs.has(runKey(r)))
    )
  })
}

function mergedProject(latest: ProjectLedger, ours: ProjectLedger): ProjectLedger {
  const project = structuredClone(latest)
  const jobs = new Set(project.jobs.map(j => j.id))
  project.jobs.push(...structuredClone(ours.jobs.filter(j => !jobs.has(j.id))))
  project.jobs.sort((a, b) => a.startedAt - b.startedAt)
  project.spend = [...new Set([...project.spend, ...ours.spend])].sort((a, b) => a - b)
  if (ours.startsByDay)
    for (const [day, count] of Object.entries(ours.startsByDay))
      (project.startsByDay ??= {})[day] = Math.max(project.startsByDay[day] ?? 0, count)
  const runs = new Set(project.runs.map(runKey))
  project.runs.push(...structuredClone(ours.runs.filter(r => !runs.has(runKey(r)))))
  project.runs.sort((a, b) => a.at - b.at)
  if (ours.documented && (project.documented?.at ?? -1) < ours.documented.at)
    project.documented = { ...ours.documented }
  for (const [key, mark] of Object.entries(ours.repositories ?? {})) {
    const marks = (project.repositories ??= {})
    if ((marks[key]?.at ?? -1) < mark.at) marks[key] = { ...mark }
  }
  project.olderRuns = Math.max(project.olderRuns, ours.olderRuns)
  const olderJobs = Math.max(project.olderJobs ?? 0, ours.olderJobs ?? 0)
  if (olderJobs) project.olderJobs = olderJobs
  return project
}

/** A run entry's identity: its run, step and time; its result changes as the run goes on. */
const runKey = (r: RunEntry): string => `${r.run}/${r.step}/${r.at}/${r.job ?? ''}`
