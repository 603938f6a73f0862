import { type Outcomes, outcomes } from './outcomes.js'
import type { LedgerJob, ProjectLedger } from '../../records/ledger.js'

/** A code repository's share of the outcomes: the docs pull requests that document its changes. */
export type RepositoryFigures = Omit<Outcomes, 'started' | 'creditsPerMerge'>

export interface RepositoryOutcomes {
  /** owner/name as `code-repositories` spells it (its watermark's), else as its changes name it. */
  name: string
  figures: RepositoryFigures
}

export interface OutcomesByRepository {
  /** One row per code repository, by name. */
  rows: RepositoryOutcomes[]
  /** Docs pull requests of the window whose changes name no repository (recorded before). */
  unnamed: number
}

/**
 * The outcomes per code repository, for a docs project fed by several (`code-repositories`); none
 * for a project fed by one. A job whose changes come from several repositories counts once for each
 * of them, so the rows may add up to more than the total. Each row is counted as the total is, over
 * the jobs that document the repository; jobs and follow-ups started and credits are the project's
 * alone (a start is not tied to one repository), so they have no row.
 */
export function outcomesByRepository(
  project: ProjectLedger,
  now: number
): OutcomesByRepository | undefined {
  const names = new Map<string, string>()
  for (const [key, mark] of Object.entries(project.repositories ?? {})) names.set(key, mark.name)
  const jobsOf = new Map<string, LedgerJob[]>()
  const unnamed: LedgerJob[] = []
  for (const job of project.jobs) {
    const repositories = repositoriesOf(job)
    if (!repositories.length) unnamed.push(job)
    for (const name of repositories) {
      const key = name.toLowerCase()
      if (!names.has(key)) names.set(key, name)
      jobsOf.set(key, [...(jobsOf.get(key) ?? []), job])
    }
  }
  if (names.size < 2) return undefined
  const rows = [...names].map(([key, name]) => {
    // The project's own counting over the jobs that document this repository, minus the figures
    // that are the project's alone.
    const {
      started: _started,
      creditsPerMerge: _credits,
      ...figures
    } = outcomes({ ...project, jobs: jobsOf.get(key) ?? [] }, now)
    return { name, figures }
  })
  rows.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
  const rest = outcomes({ ...project, jobs: unnamed }, now)
  return { rows, unnamed: rest.decided + rest.open + rest.drafts }
}

/** The code repositories a job documents, each once (case aside): listed changes' and cut ones'. */
export function repositoriesOf(job: LedgerJob): string[] {
  const seen = new Map<string, string>()
  for (const name of [...job.changes.map(c => c.repo), ...(job.moreRepositories ?? [])])
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name)
  return [...seen.values()]
}
