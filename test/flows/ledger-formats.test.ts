import { describe, expect, it } from 'vitest'
import { LEDGER_FORMAT } from '../../src/records/ledger.js'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import { SIM_PROJECT } from '../simulator/server.js'
import { APP, type CodeChangeServers, labelledIssue } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { ledgerFixture, signedStateBody, stateIn } from '../support/ledger-states.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * Dashboards of other versions of the action, through the real run() against the fake GitHub: a
 * format-1 state an earlier version wrote is upgraded by the next run with nothing lost, and a state
 * a newer version wrote is never written over: the run stops before it starts anything.
 */
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(
  clock,
  world => {
    servers = world
    ;({ sim, gh } = world)
  },
  { initialCommit: false }
)

const DAY = 86_400_000
const LABEL = 'docs-agent-dashboard'
/** The next run, in-process on the suite's clock. */
const run = suite.run
const prompts = (): string[] =>
  [...sim.requests('create'), ...sim.requests('message')].map(
    e => (e.requestBody as { prompt: string }).prompt
  )
const sha = (n: number): string => n.toString(16).padStart(8, '0').repeat(5)

/**
 * `pull` merged into acme/app's main as commit `commit`: the fixtures' runs saw these commits, by
 * these shas, which the fake's own counter would not give again (it does not restart per test).
 */
function mergeAs(commit: string, pull: FakePull): FakePull {
  gh.addPull(APP, pull)
  gh.commits.set(commit, {
    sha: commit,
    message: `${pull.title} (#${pull.number})`,
    files: pull.files,
    pulls: [pull.number],
    author: { login: 'alice' }
  })
  gh.branches.set(`${APP}:main`, [...(gh.branches.get(`${APP}:main`) ?? []), commit])
  return Object.assign(pull, { merged: true, state: 'closed', mergeCommit: commit })
}
const file = (n: number) => [{ filename: `src/feature${n}.ts`, additions: 10 }]

/** The dashboard issue as GitHub holds it: the action's, labelled, with `body`. */
function dashboardIssue(number: number, title: string, body: string): FakeIssue {
  const issue: FakeIssue = {
    number,
    title,
    body,
    state: 'open',
    labels: [LABEL],
    user: { login: 'github-actions[bot]', type: 'Bot' },
    updatedAt: 1,
    createdAt: clock.wallNow() - DAY
  }
  gh.issues.set(number, issue)
  return issue
}

/** The fixtures' history of acme/app: an initial commit and pull requests #101 to #105. */
const TITLES = [
  'Add retries to the client',
  'Add backoff <b>& jitter</b> --> "quoted"',
  'Rename the timeout flag',
  'Document the proxy settings',
  'Drop Node 18'
]
function fixtureHistory(): void {
  gh.commits.set(sha(1), { sha: sha(1), message: 'Initial commit' })
  gh.branches.set(`${APP}:main`, [sha(1)])
  TITLES.forEach((title, i) =>
    mergeAs(sha(i + 2), { number: 101 + i, title, body: `What it does.`, files: file(101 + i) })
  )
}

type RawProject = Record<string, unknown>

describe('a dashboard an earlier version wrote (format 1), a month and more later', () => {
  it.each(['v1-a21b46a-repository.json', 'v1-fb8feff-repository.json'])(
    '%s: the next run reads it, takes its waiting changes, and writes it in the current format with the rest kept',
    async name => {
      const fixture = ledgerFixture(name)
      fixtureHistory()
      const issue = dashboardIssue(fixture.issue, fixture.title, fixture.body)
      const before = stateIn(fixture.body)
      const old = (before.projects as Record<string, RawProject>)[SIM_PROJECT] as RawProject
      // Whenever the suite runs, the fixture's starts are older than the 31 days kept.
      const lastWrite = Math.max(...(old.runs as { at: number }[]).map(r => r.at))
      clock.advance(lastWrite + 40 * DAY - clock.wallNow())
      const next = mergeAs(sha(7), {
        number: 106,
        title: 'Explain the cache',
        body: 'What it does.',
        files: file(106)
      })
      const result = await run({ event: servers.mergedEvent(next), inputs: { fold: 'never' } })
      expect(result.log).not.toContain('::error::')
      expect(result.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
      // The changes that waited go with the new one; the uncertain one and the documented ones do not.
      expect(prompts()).toHaveLength(1)
      for (const title of ['Document the proxy settings', 'Drop Node 18', 'Explain the cache'])
        expect(prompts()[0]).toContain(`: ${title}\n`)
      for (const title of ['Add retries to the client', 'Rename the timeout flag'])
        expect(prompts()[0]).not.toContain(title)

      // Written back in the current format, bound to its issue.
      expect(servers.dashboards()).toEqual([issue])
      const after = stateIn(issue.body)
      expect(after).toMatchObject({ v: LEDGER_FORMAT, issue: fixture.issue })
      expect(after.writtenAt).toBeGreaterThan((before.writtenAt as number | undefined) ?? 0)
      const project = servers.ledgerOf(SIM_PROJECT, issue)
      if (!project) throw new Error('no project')
      expect(project.documented?.sha).toBe(sha(7))
      expect(project.waiting).toBeNull()
      // What the earlier version recorded is all there: its job, its uncertain request, its runs.
      expect(project.jobs[0]).toEqual(fixture.readByItsCode.projects[SIM_PROJECT]?.jobs[0])
      expect(project.jobs.map(j => j.id)).toEqual([
        (old.jobs as { id: string }[])[0]?.id,
        result.outputs.jobId
      ])
      expect(project.uncertain).toEqual(old.uncertain)
      expect(project.runs.slice(0, -1)).toEqual(old.runs)
      expect(project.runs.at(-1)).toMatchObject({
        result: 'pr-opened',
        job: result.outputs.jobId,
        head: sha(7),
        changes: 3
      })
      // Its starts were more than 31 days old: only this run's is kept, in the compact form.
      expect(project.spend).toHaveLength(1)
      expect(typeof (after.projects as Record<string, RawProject>)[SIM_PROJECT]?.spend).toBe(
        'string'
      )
    }
  )
})

describe('a dashboard a newer version wrote (a newer format)', () => {
  const ISSUE = 501
  /** A state of the next format, as a newer version would write it in dashboard #501. */
  const newerBody = (at: number): string =>
    signedStateBody(
      {
        v: LEDGER_FORMAT + 1,
        issue: ISSUE,
        version: 12,
        writtenAt: at,
        projects: { [SIM_PROJECT]: { budget: { starts: 'soon' }, waiting: { batches: [] } } }
      },
      { repository: APP, issue: ISSUE }
    )
  /** The error a run stops with, `outcome` being what it says it did. */
  const stopped = (number: number, outcome: string): string =>
    `::error::The dashboard https://github.com/${APP}/issues/${number} was written by a newer version of the action (its state is in format ${LEDGER_FORMAT + 1}; this version reads formats up to ${LEDGER_FORMAT}), so this version leaves it as it is${outcome}. Update this workflow's 'uses:' pin of mintlify/agent-action (or of its sub-action) to the version your other workflows use, or a newer one.`

  it('a change run stops before it starts anything, and leaves the dashboard as it is', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const body = newerBody(clock.wallNow())
    const dashboard = dashboardIssue(ISSUE, 'Docs agent dashboard', body)
    const result = await run({ event: servers.mergedEvent(servers.mergeNext()) })
    expect(result.code).toBe(1)
    expect(result.log).toContain(stopped(ISSUE, ': nothing was started'))
    expect(result.log).not.toContain('unexpected')
    expect(sim.exchanges).toHaveLength(0)
    expect(dashboard.body).toBe(body)
    expect(servers.dashboards()).toEqual([dashboard])
    expect(gh.requests.filter(r => r.method !== 'GET' && r.path !== '/graphql')).toEqual([])
  })

  it('an issue run with max-jobs stops too: it could not count its job where the budget is kept', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    gh.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
    const body = newerBody(clock.wallNow())
    const dashboard = dashboardIssue(ISSUE, 'Docs agent dashboard', body)
    const labelled = labelledIssue()
    const result = await run({
      eventName: 'issues',
      event: labelled,
      inputs: { 'max-jobs': '5/day' }
    })
    expect(result.code).toBe(1)
    expect(result.log).toContain(stopped(ISSUE, ': nothing was started'))
    expect(sim.exchanges).toHaveLength(0)
    expect(dashboard.body).toBe(body)
  })

  it('a newer version writing while this run reads: this run stops before the job and writes nothing over it', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await run({ event: servers.mergedEvent(servers.mergeNext({ title: 'One' })) })
    const dashboard = servers.dashboards()[0] as FakeIssue
    expect(stateIn(dashboard.body).v).toBe(LEDGER_FORMAT)
    const requestsBefore = sim.exchanges.length
    // Another workflow's newer version writes the dashboard while this run checks it can write.
    let newer = ''
    const stop = gh.onRequest(request => {
      if (request.method !== 'PATCH' || !request.path.endsWith(`/issues/${dashboard.number}`))
        return
      stop()
      newer = signedStateBody(
        { v: LEDGER_FORMAT + 1, issue: dashboard.number, writtenAt: clock.wallNow() + 1000 },
        { repository: APP, issue: dashboard.number }
      )
      dashboard.body = newer
    })
    const result = await run({
      event: servers.mergedEvent(servers.mergeNext({ title: 'Two' })),
      inputs: { fold: 'never' }
    })
    expect(result.code).toBe(1)
    expect(result.log).toContain(stopped(dashboard.number, ', and this run records nothing there'))
    expect(sim.exchanges).toHaveLength(requestsBefore)
    expect(prompts().some(p => p.includes(': Two\n'))).toBe(false)
    expect(dashboard.body).toBe(newer)
  })

  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
