import { describe, expect, it } from 'vitest'
import { renderDashboard } from '../../src/agent/ledger/dashboard-body.js'
import { outcomes } from '../../src/agent/ledger/outcomes.js'
import {
  outcomesByRepository,
  repositoriesOf
} from '../../src/agent/ledger/outcomes-by-repository.js'
import {
  type ChangeRef,
  type LedgerJob,
  type ProjectLedger,
  emptyProject,
  ledgerRecord,
  readLedger
} from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'

const DAY = 86_400_000
const HOUR = 3_600_000
const NOW = Date.UTC(2026, 10, 24, 12)
const view = { repository: 'acme/docs', serverUrl: 'https://github.com', now: NOW }
const SHA = 'a'.repeat(40)

const change = (repo: string | undefined, pr: number): ChangeRef => ({
  sha: SHA,
  pr,
  title: `Change ${pr}`,
  ...(repo ? { repo } : {})
})
const job = (
  n: number,
  state: string,
  repos: (string | undefined)[],
  over: Partial<LedgerJob> = {}
): LedgerJob => ({
  id: `job_${n}`,
  prLink: `https://github.com/acme/docs/pull/${n}`,
  state,
  startedAt: NOW - 5 * DAY,
  endedAt: state === 'open' ? undefined : NOW - 5 * DAY + 10 * HOUR,
  changes: repos.map((r, i) => change(r, i + 1)),
  moreChanges: 0,
  ...over
})
const mark = (name: string) => ({ sha: SHA, at: NOW - 9 * DAY, name, branch: 'main' })
/** A docs project of acme/api and acme/cli (as code-repositories spells them). */
function docsProject(...jobs: LedgerJob[]): ProjectLedger {
  const project = emptyProject()
  project.repositories = { 'acme/api': mark('acme/api'), 'acme/cli': mark('Acme/CLI') }
  project.jobs.push(...jobs)
  return project
}
const rowOf = (project: ProjectLedger, name: string) =>
  outcomesByRepository(project, NOW)?.rows.find(r => r.name === name)?.figures
const render = (project: ProjectLedger) =>
  renderDashboard({ v: 1, projects: { proj: project } }, view)

describe('outcomes per code repository', () => {
  it('counts each docs pull request once for each repository it documents, as the total is counted', () => {
    const project = docsProject(
      job(1, 'merged', ['acme/api', 'acme/api'], { personCommitted: false }),
      job(2, 'merged', ['acme/api', 'acme/cli'], { personCommitted: true, endedAt: NOW - 4 * DAY }),
      job(3, 'closed', ['acme/cli']),
      job(4, 'expired', ['acme/cli']),
      job(5, 'open', ['acme/api']),
      job(6, 'open', ['acme/cli'], { draft: true }),
      // Outside the 30 days: in no row, as in no total.
      job(7, 'merged', ['acme/api'], { startedAt: NOW - 40 * DAY, endedAt: NOW - 39 * DAY })
    )
    const byRepository = outcomesByRepository(project, NOW)
    expect(byRepository?.rows.map(r => r.name)).toEqual(['acme/api', 'Acme/CLI'])
    expect(byRepository?.unnamed).toBe(0)
    expect(rowOf(project, 'acme/api')).toMatchObject({
      merged: 2,
      closed: 0,
      expired: 0,
      open: 1,
      drafts: 0,
      decided: 2,
      acceptance: 1,
      zeroTouch: 1,
      touchKnown: 2,
      medianToMerge: (10 * HOUR + DAY) / 2
    })
    // `acme/cli` in a change, `Acme/CLI` in code-repositories: one repository.
    expect(rowOf(project, 'Acme/CLI')).toMatchObject({
      merged: 1,
      closed: 1,
      expired: 1,
      open: 0,
      drafts: 1,
      decided: 3,
      zeroTouch: 0,
      touchKnown: 1,
      medianToMerge: DAY
    })
    // The rows add up to more than the total: job 2 is in both.
    expect(outcomes(project, NOW).merged).toBe(2)
    expect(byRepository?.rows.reduce((sum, r) => sum + r.figures.merged, 0)).toBe(3)
  })

  it('renders one row per repository with each figure’s counts, and says how a job of several repositories counts', () => {
    const project = docsProject(
      job(1, 'merged', ['acme/api'], { personCommitted: false }),
      job(2, 'merged', ['acme/api', 'acme/cli'], { personCommitted: true }),
      job(3, 'closed', ['acme/cli']),
      job(4, 'open', ['acme/cli'], { draft: true })
    )
    const body = render(project)
    expect(body).toContain('#### Outcomes per code repository, last 30 days')
    expect(body).toContain(
      'A docs pull request that documents changes from several repositories counts once for each of them, so the rows can add up to more than the total.'
    )
    expect(body).toContain(
      '| [acme/api](https://github.com/acme/api) | 2 | 0 | 0 | 0 | 0 | 100% (2 of 2 decided) | 50% (1 of 2 merged and read) | 10 hours |'
    )
    expect(body).toContain(
      '| [Acme/CLI](https://github.com/Acme/CLI) | 1 | 1 | 0 | 0 | 1 | 50% (1 of 2 decided) | 0% (0 of 1 merged and read) | 10 hours |'
    )
    // The per-repository table follows the totals.
    expect(body.indexOf('#### Outcomes per code repository')).toBeGreaterThan(
      body.indexOf('#### Outcomes, last 30 days')
    )
    expect(body).not.toContain('in no row')
  })

  it('says what nothing decided, read or merged is, per repository', () => {
    const body = render(docsProject(job(1, 'open', ['acme/api']), job(2, 'merged', ['acme/cli'])))
    expect(body).toContain(
      '| [acme/api](https://github.com/acme/api) | 0 | 0 | 0 | 1 | 0 | none decided yet | no merge read yet | no merge yet |'
    )
    expect(body).toContain(
      '| [Acme/CLI](https://github.com/Acme/CLI) | 1 | 0 | 0 | 0 | 0 | 100% (1 of 1 decided) | no merge read yet | 10 hours |'
    )
  })

  it('leaves a project fed by one repository as it was: no table, for a single repository or none', () => {
    const single = emptyProject()
    single.jobs.push(job(1, 'merged', [undefined]), job(2, 'closed', [undefined]))
    expect(outcomesByRepository(single, NOW)).toBeUndefined()
    expect(render(single)).not.toContain('per code repository')
    const one = emptyProject()
    one.repositories = { 'acme/api': mark('acme/api') }
    one.jobs.push(job(1, 'merged', ['acme/api']), job(2, 'closed', ['acme/api']))
    expect(outcomesByRepository(one, NOW)).toBeUndefined()
    expect(render(one)).not.toContain('per code repository')
    // Listed repositories but no docs pull request yet: nothing to show.
    expect(render(docsProject())).not.toContain('per code repository')
  })

  it('names a repository its changes name though code-repositories no longer lists it, and counts the jobs that name none apart', () => {
    const project = docsProject(
      job(1, 'merged', ['acme/old']),
      job(2, 'closed', [undefined]),
      job(3, 'open', [])
    )
    const byRepository = outcomesByRepository(project, NOW)
    expect(byRepository?.rows.map(r => r.name)).toEqual(['acme/api', 'Acme/CLI', 'acme/old'])
    expect(byRepository?.unnamed).toBe(2)
    expect(render(project)).toContain(
      '2 docs pull requests whose changes name no repository (recorded before `code-repositories`) are in no row.'
    )
  })

  it('escapes a repository name as other text: no link, mention or formatting gets through', () => {
    const project = emptyProject()
    project.jobs.push(
      job(1, 'merged', ['acme/api']),
      // As a hand-made ledger could hold it (the ledger's reader drops such a name).
      job(2, 'closed', ['evil/x](https://evil.example)|<b>@team_*'])
    )
    const body = render(project)
    expect(body).toContain('| [evil/x\\]\\(https://evil.example\\)\\|\\<b\\>@\u200bteam\\_\\*](')
    expect(body).not.toContain('<b>')
  })

  it('keeps a job’s repositories when its change list is cut to fit the ledger, and reads them back', () => {
    const signer = new RecordSigner('mint_test_key_0123456789')
    const project = emptyProject()
    // Beyond the last 10 jobs, a job in the window stays without its changes.
    for (let n = 1; n <= 12; n++)
      project.jobs.push(job(n, 'merged', [n === 1 ? 'acme/web' : 'acme/api', 'Acme/Web']))
    const record = ledgerRecord(
      { v: 1, projects: { proj: project } },
      signer,
      'acme/docs dashboard',
      NOW
    )
    const read = readLedger(record, signer, 'acme/docs dashboard')
    expect(read.ok).toBe(true)
    const first = read.ok ? read.ledger.projects.proj?.jobs[0] : undefined
    expect(first?.changes).toEqual([])
    expect(first?.moreChanges).toBe(2)
    expect(first?.moreRepositories).toEqual(['acme/web'])
    expect(repositoriesOf(first as LedgerJob)).toEqual(['acme/web'])
    const back = read.ok ? (read.ledger.projects.proj as ProjectLedger) : emptyProject()
    expect(outcomesByRepository(back, NOW)?.rows.map(r => [r.name, r.figures.merged])).toEqual([
      ['acme/api', 11],
      ['acme/web', 12]
    ])
  })
})
