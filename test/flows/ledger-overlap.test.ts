import { describe, expect, it } from 'vitest'
import { dashboardPlace, ledgerRecord, readDashboardState } from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../simulator/server.js'
import {
  APP,
  type ChangeRun,
  type CodeChangeServers,
  labelledIssue
} from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { runInProcess, startInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * Runs that overlap on one dashboard: GitHub has no conditional write for an issue's body, so each
 * write of the ledger is a compare-and-set by hand. A run that read the dashboard before another
 * run wrote it never writes its decision over that run's record, and the budget counts both.
 */
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})

const BUDGET = { 'max-jobs': '2/day', fold: 'never' }
const step = (r: ChangeRun) => {
  servers.runId++
  return { clock, ...servers.step(r) }
}
const merged = (over: Partial<FakePull>): ChangeRun => ({
  event: servers.mergedEvent(servers.mergeNext(over)),
  inputs: BUDGET
})
const theDashboard = (): FakeIssue => {
  const own = [...gh.issues.values()].filter(i => i.user.type === 'Bot')
  expect(own).toHaveLength(1)
  return own[0] as FakeIssue
}
const ledger = () => servers.ledgerOf(SIM_PROJECT, theDashboard())
/** An issue labelled for the agent by a writer: a job a person asked for, which max-jobs counts. */
const issueRun = (): ChangeRun => ({
  eventName: 'issues',
  event: labelledIssue(),
  inputs: { 'max-jobs': BUDGET['max-jobs'] }
})

describe('overlapping runs on one dashboard', () => {
  it("a run that read the dashboard before an issue run's job keeps that job: the budget counts both", async () => {
    gh.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
    await runInProcess(step(merged({ title: 'One' })))
    expect(ledger()?.spend).toHaveLength(1)
    // A change run with nothing to document reads the dashboard, then is held reading the docs
    // pull request of the job it lists.
    let release = (): void => undefined
    gh.delays.set('pull', new Promise<void>(resolve => (release = resolve)))
    const skip = startInProcess(step(merged({ title: 'Two', labels: ['no-docs'] })))
    await gh.received(/^GET \/repos\/acme\/docs\/pulls\/101$/)
    // Meanwhile an issue run starts a job and counts it on the dashboard.
    const issue = await runInProcess(step(issueRun()))
    expect(issue.outputs.result).toBe('pr-opened')
    expect(ledger()?.spend).toHaveLength(2)
    gh.delays.delete('pull')
    release()
    const skipped = await skip.done
    expect(skipped.log).not.toContain('::error::')
    // Both records kept: the issue run's job and start, and the decision of the run that overlapped.
    const runs = ledger()?.runs.map(r => r.note || r.result)
    expect(runs).toContain('from issue #7')
    expect(ledger()?.runs.at(-1)).toMatchObject({ result: 'skipped', head: servers.gh.headOf(APP) })
    expect(ledger()?.spend).toHaveLength(2)
    // So the next merge finds the budget spent: no third job on a 2/day budget.
    const third = await runInProcess(step(merged({ title: 'Three' })))
    expect(third.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(third.log).toContain('Over budget')
    expect(sim.requests('create')).toHaveLength(2)
  })

  it('a write another run took away at once is read back, merged and written again: both jobs kept', async () => {
    await runInProcess(step(merged({ title: 'One' })))
    const dashboard = theDashboard()
    const signer = new RecordSigner(SIM_API_KEY)
    const read = readDashboardState(dashboard.body, signer, APP, dashboard.number)
    if (!read.ok) throw new Error('the dashboard holds no state')
    // Another run read the dashboard here (one job) and starts its own job, job_other; its write
    // lands just after the next run's first write of its job, from what it read before it.
    const stale = structuredClone(read.ledger)
    let overwritten = false
    const stop = gh.onRequest(request => {
      const body = (request.body as { body?: unknown } | undefined)?.body
      if (request.method !== 'PATCH' || typeof body !== 'string' || !body.includes('Two')) return
      stop()
      setImmediate(() => {
        const project = stale.projects[SIM_PROJECT]
        if (!project) throw new Error('no project')
        const at = clock.wallNow()
        project.jobs.push({
          id: 'job_other',
          state: 'started',
          startedAt: at,
          changes: [],
          moreChanges: 0
        })
        project.spend.push(at)
        stale.version = (stale.version ?? 0) + 5
        stale.writtenAt = Math.max(at, (stale.writtenAt ?? 0) + 1) + 2000
        const page = dashboard.body.replace(/<!-- mintlify-agent-ledger[^]*$/, '')
        gh.editIssue(
          dashboard.number,
          `${page}\n${ledgerRecord(stale, signer, dashboardPlace(APP, dashboard.number), at)}`,
          'github-actions[bot]'
        )
        overwritten = true
      })
    })
    const second = await runInProcess(step(merged({ title: 'Two' })))
    expect(overwritten).toBe(true)
    expect(second.outputs.result).toBe('pr-opened')
    expect(ledger()?.jobs.map(j => j.id)).toEqual(
      expect.arrayContaining(['job_other', second.outputs.jobId])
    )
    expect(ledger()?.jobs).toHaveLength(3)
    expect(ledger()?.spend).toHaveLength(3)
  })

  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
