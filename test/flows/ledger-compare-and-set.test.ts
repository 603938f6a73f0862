import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type GitHubClient, openGitHubClient, repositoryApi } from '../../src/github/api.js'
import { Dashboard, type DashboardOptions } from '../../src/agent/ledger/dashboard.js'
import { setWatermark } from '../../src/agent/ledger/watermarks.js'
import {
  DASHBOARD_LABEL,
  type Ledger,
  type ProjectLedger,
  dashboardPlace,
  ledgerRecord,
  noteStart,
  readDashboardState,
  utcDay
} from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import { CancelledError } from '../../src/runner/errors.js'
import { FakeGitHub, type FakeIssue } from '../simulator/fake-github.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * Each write of the ledger is a compare-and-set: two runs' Dashboards over one fake GitHub, one
 * write held until the other lands, and neither loses what the other recorded, nor counts it twice.
 */
const clock = new VirtualClock()
const REPO = 'acme/app'
const TOKEN = 'ghs_cas_token'
const PROJECT = 'proj'
const signer = new RecordSigner('mint_cas_test_key_0123456789abcdef')
let gh: FakeGitHub
const clients: GitHubClient[] = []

beforeAll(async () => {
  gh = await FakeGitHub.start({ now: clock.wallNow })
})
afterAll(async () => {
  await Promise.all(clients.map(c => c.close()))
  await gh.close()
})
beforeEach(() => gh.reset())

const api = (cancel?: AbortSignal) => {
  const client = openGitHubClient(TOKEN, gh.url, { clock, ...(cancel ? { cancel } : {}) })
  clients.push(client)
  return repositoryApi(client.octokit, { owner: 'acme', repo: 'app' })
}
/** A run's dashboard; `sleep` is its pause before a read back (the run's clock by default). */
const open = (options: Partial<DashboardOptions> = {}, cancel?: AbortSignal) =>
  Dashboard.open(api(cancel), {
    title: 'Docs agent dashboard',
    signer,
    secrets: [],
    view: { repository: REPO, serverUrl: 'https://github.com' },
    now: clock.wallNow,
    sleep: ms => clock.sleep(ms),
    ...options
  })
const theDashboard = (): FakeIssue => [...gh.issues.values()][0] as FakeIssue
const state = (): Ledger => {
  const issue = theDashboard()
  const read = readDashboardState(issue.body, signer, REPO, issue.number)
  if (!read.ok) throw new Error(`no state: ${read.why}`)
  return read.ledger
}
const project = (): ProjectLedger => state().projects[PROJECT] as ProjectLedger

/** A job started at `at` and counted, with the run's entry: what a change run records. */
const start = (id: string, at: number) => (p: ProjectLedger) => {
  p.jobs.push({ id, state: 'started', startedAt: at, changes: [], moreChanges: 0 })
  noteStart(p, at)
  p.runs.push(entry(id, at))
}
const entry = (run: string, at: number) => ({
  at,
  url: `https://github.com/${REPO}/actions/runs/${run}`,
  run,
  step: 'docs',
  result: 'job started',
  job: run,
  changes: 1,
  note: ''
})

/** Holds the next write of the body that holds `marker` until `release`; resolves once it arrived. */
function holdWrite(marker: string): { arrived: Promise<void>; release: () => void } {
  let release = (): void => undefined
  const gate = new Promise<void>(resolve => (release = resolve))
  let arrived = (): void => undefined
  const seen = new Promise<void>(resolve => (arrived = resolve))
  const stop = gh.onRequest(request => {
    const body = (request.body as { body?: unknown } | undefined)?.body
    if (request.method !== 'PATCH' || typeof body !== 'string' || !body.includes(marker)) return
    stop()
    gh.delays.set('update-issue', gate)
    // Only this write: the delay is read as the request is handled, before the next turn.
    setImmediate(() => gh.delays.delete('update-issue'))
    arrived()
  })
  return { arrived: seen, release }
}

/**
 * The dashboard with one job, started an hour ago, or at midnight UTC when the day is younger: the
 * tests count it among today's starts, whatever the time of day they run at.
 */
async function seeded(change?: (p: ProjectLedger) => void): Promise<void> {
  const first = await open()
  const now = clock.wallNow()
  await first.write(PROJECT, p => {
    start('job_0', Math.max(now - 3_600_000, Date.parse(utcDay(now))))(p)
    change?.(p)
  })
}

describe('overlapping writes of the ledger', () => {
  it.each([
    ['at different times', 0],
    ['in the same millisecond', 1]
  ])(
    'two runs that read the same state and write it back to back, the later write rendered first: both jobs and starts kept (%s)',
    async (_name, same) => {
      await seeded()
      const a = await open({
        // Run B's held write lands while run A waits to read its own write back.
        sleep: async ms => {
          held.release()
          await bWrites
          await clock.sleep(ms)
        }
      })
      const b = await open()
      const at = clock.wallNow()
      const held = holdWrite('job_B')
      // B renders its write first; it reaches GitHub after A's.
      const bWrites = b.write(PROJECT, start('job_B', at))
      await held.arrived
      clock.advance(2000)
      await a.write(PROJECT, start('job_A', same ? at : clock.wallNow()), { confirm: true })
      await bWrites
      expect(
        project()
          .jobs.map(j => j.id)
          .sort()
      ).toEqual(['job_0', 'job_A', 'job_B'])
      expect(project().spend).toHaveLength(3)
      expect(project().startsByDay?.[utcDay(at)]).toBe(3)
      // A's next write keeps B's job.
      await a.write(PROJECT, p => {
        const job = p.jobs.find(j => j.id === 'job_A')
        if (job) job.state = 'open'
      })
      expect(
        project()
          .jobs.map(j => j.id)
          .sort()
      ).toEqual(['job_0', 'job_A', 'job_B'])
      expect(project().spend).toHaveLength(3)
    }
  )

  it('a write another run took away is made again: its uncertain request, its start, its end of the waiting batch and its resend all kept', async () => {
    const resent = { id: 'old1', at: 1, what: 'new-job' as const, changes: [], why: 'no answer' }
    await seeded(p => {
      p.waiting = {
        changes: [{ sha: 'a'.repeat(40), title: 'Waits' }],
        why: 'over budget',
        since: 1
      }
      p.uncertain.push(resent)
    })
    const base = state()
    const day = utcDay(clock.wallNow())
    const a = await open()
    // Another run read the same state and counted a job of its own; its write lands just after A's.
    let overwritten = false
    const stop = gh.onRequest(request => {
      const body = (request.body as { body?: unknown } | undefined)?.body
      if (request.method !== 'PATCH' || typeof body !== 'string' || !body.includes('job_A')) return
      stop()
      setImmediate(() => {
        const stale = structuredClone(base)
        const p = stale.projects[PROJECT] as ProjectLedger
        start('job_B', clock.wallNow())(p)
        stale.version = (stale.version ?? 0) + 5
        stale.writtenAt = clock.wallNow() + 10_000
        const issue = theDashboard()
        gh.editIssue(
          issue.number,
          `page\n${ledgerRecord(stale, signer, dashboardPlace(REPO, issue.number), clock.wallNow())}`,
          'github-actions[bot]'
        )
        overwritten = true
      })
    })
    const at = clock.wallNow()
    await a.write(
      PROJECT,
      p => {
        // What an uncertain write of a resent batch records (ledger-session.ts).
        p.uncertain = p.uncertain.filter(u => u.id !== 'old1')
        p.uncertain.push({
          id: at.toString(36),
          at,
          what: 'new-job',
          changes: [],
          why: 'no answer'
        })
        p.waiting = null
        noteStart(p, at)
        p.runs.push({ ...entry('job_A', at), result: 'uncertain' })
      },
      { confirm: true }
    )
    expect(overwritten).toBe(true)
    const p = project()
    expect(p.jobs.map(j => j.id).sort()).toEqual(['job_0', 'job_B'])
    expect(p.uncertain.map(u => u.id)).toEqual([at.toString(36)])
    expect(p.waiting).toBeNull()
    expect(p.spend).toHaveLength(3)
    expect(p.startsByDay?.[day]).toBe(3)
  })

  it("another run's fit is kept: runs it moved into the older count are not put back or counted twice", async () => {
    await seeded(p => {
      for (let i = 0; i < 19; i++) p.runs.push(entry(`old${i}`, clock.wallNow() - 1000 * (100 - i)))
      p.olderRuns = 5
    })
    expect(project().runs).toHaveLength(20)
    const a = await open()
    const b = await open()
    await b.write(PROJECT, p => void p.runs.push(entry('b', clock.wallNow())))
    expect(project().olderRuns).toBe(6)
    await a.write(PROJECT, p => void p.runs.push(entry('a', clock.wallNow())))
    const p = project()
    expect(p.runs).toHaveLength(20)
    expect(p.runs.slice(-2).map(r => r.run)).toEqual(['b', 'a'])
    // 5 + 20 + 2 runs in all: 7 beyond the 20 listed.
    expect(p.olderRuns).toBe(7)
  })

  it('a full ledger: a read back that finds the write held by a later run writes nothing again', async () => {
    await seeded(p => {
      for (let i = 0; i < 19; i++) p.runs.push(entry(`old${i}`, clock.wallNow() - 1000 * (100 - i)))
    })
    const b = await open()
    const a = await open({
      // Another run writes after A, from A's write, before A reads it back.
      sleep: async ms => {
        await b.write(PROJECT, p => void p.runs.push(entry('b', clock.wallNow())))
        await clock.sleep(ms)
      }
    })
    gh.requests.length = 0
    const paused = clock.pauses.length
    await a.write(PROJECT, start('job_A', clock.wallNow()), { confirm: true })
    const patches = gh.requests.filter(r => r.method === 'PATCH')
    // A's write and B's: none again.
    expect(patches).toHaveLength(2)
    expect(clock.pauses.slice(paused).filter(ms => ms === 3000)).toHaveLength(1)
    expect(
      project()
        .runs.slice(-2)
        .map(r => r.run)
    ).toEqual(['job_A', 'b'])
  })

  it('a renamed repository stays under its new name only', async () => {
    const old = { name: 'acme/old', branch: 'main', id: 'R_kgDOabc' }
    await seeded(p => setWatermark(p, old, 'a'.repeat(40), 1000))
    const a = await open()
    const b = await open()
    // A sees the repository under its new name: its watermark moves there.
    await a.write(PROJECT, p => setWatermark(p, { ...old, name: 'acme/new' }, 'b'.repeat(40), 2000))
    // B read before A wrote: its merge does not bring the old name back.
    await b.write(PROJECT, p => void p.runs.push(entry('b', clock.wallNow())))
    expect(Object.keys(project().repositories ?? {})).toEqual(['acme/new'])
  })

  it('a repository waiting unread, taken away by a run that read before, is put back with its earliest time', async () => {
    await seeded()
    const a = await open()
    const b = await open()
    // B read first, noted the repository later; its write lands after A's.
    const held = holdWrite('"run":"b"')
    const bWrites = b.write(PROJECT, p => {
      p.unread = { 'acme/late': { name: 'acme/late', since: 9000 } }
      p.runs.push(entry('b', clock.wallNow()))
    })
    await held.arrived
    await a.write(PROJECT, p => {
      p.unread = { 'acme/late': { name: 'acme/late', since: 5000 } }
      p.runs.push(entry('a', clock.wallNow()))
    })
    held.release()
    await bWrites
    expect(project().unread?.['acme/late']?.since).toBe(9000)
    // A's next write merges B's state: the earliest time stays.
    await clock.sleep(5000)
    await a.write(PROJECT, p => void p.runs.push(entry('a2', clock.wallNow())))
    expect(project().unread).toEqual({ 'acme/late': { name: 'acme/late', since: 5000 } })
    expect(project().runs.map(r => r.run)).toEqual(expect.arrayContaining(['a', 'b', 'a2']))
  })

  it('a label put back is put back by a later write when the write that carried it failed', async () => {
    await seeded()
    const issue = theDashboard()
    issue.labels = []
    const a = await open()
    gh.failures.set('update-issue', { status: 502, times: 10 })
    await expect(
      a.write(PROJECT, p => void p.runs.push(entry('a', clock.wallNow())))
    ).rejects.toThrow('HTTP 502')
    expect(theDashboard().labels).toEqual([])
    gh.failures.delete('update-issue')
    // A flow that goes on without that write (reader impact) writes again.
    await a.write(PROJECT, p => void p.runs.push(entry('a2', clock.wallNow())))
    expect(theDashboard().labels).toContain(DASHBOARD_LABEL)
  })

  it("an error of the run's own is itself, a cancel says so: neither is GitHub's outage", async () => {
    await seeded()
    const a = await open()
    const bug = a.write(PROJECT, () => {
      throw new TypeError('a bug in the change')
    })
    await expect(bug).rejects.toThrow(TypeError)
    await expect(bug).rejects.toThrow('a bug in the change')
    const cancel = new AbortController()
    const c = await open({ signal: cancel.signal }, cancel.signal)
    const held = holdWrite('"run":"c"')
    const cancelled = c.write(PROJECT, p => void p.runs.push(entry('c', clock.wallNow())))
    await held.arrived
    cancel.abort()
    const error = await cancelled.then(
      () => undefined,
      (e: unknown) => e
    )
    held.release()
    expect(error).toBeInstanceOf(CancelledError)
    expect(String(error)).not.toContain('GitHub did not answer')
    expect(String(error)).not.toContain('githubstatus')
  })
})
