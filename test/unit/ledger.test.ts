import { describe, expect, it } from 'vitest'
import { budgetStates, overBudget, tightest } from '../../src/agent/ledger/budget.js'
import { jobBudget } from '../../src/policy/budget.js'
import { renderDashboard } from '../../src/agent/ledger/dashboard-body.js'
import {
  noteStart,
  mergedLedger,
  addedItems,
  type Ledger,
  type LedgerJob,
  emptyLedger,
  emptyProject,
  fitLedger,
  ledgerRecord,
  dashboardPlace,
  ledgerTitle,
  readDashboardState,
  readLedger
} from '../../src/records/ledger.js'
import { hoursOrDays, outcomes } from '../../src/agent/ledger/outcomes.js'
import { RecordSigner, findRecords } from '../../src/records/record.js'

const KEY = 'mint_test_key_0123456789'
const PLACE = 'acme/app dashboard'
const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 24, 12)

function ledgerWith(runs: number, changesPerJob = 3): Ledger {
  const ledger = emptyLedger()
  const project = emptyProject()
  project.documented = { sha: 'a'.repeat(40), at: NOW - DAY }
  for (let j = 0; j < 3; j++)
    project.jobs.push({
      id: `job_${j}`,
      prLink: `https://github.com/acme/docs/pull/${100 + j}`,
      state: 'open',
      startedAt: NOW - j * DAY,
      changes: Array.from({ length: changesPerJob }, (_, i) => ({
        sha: String(i).padStart(40, '0'),
        pr: i + 1,
        title: `Change ${i} ${'x'.repeat(80)}`
      })),
      moreChanges: 0
    })
  for (let r = 0; r < runs; r++)
    project.runs.push({
      at: NOW - r * 1000,
      url: `https://github.com/acme/app/actions/runs/${r}`,
      run: String(r),
      step: 'docs/agent',
      result: 'pr-opened',
      job: 'job_0',
      changes: 1,
      note: 'n'.repeat(200)
    })
  ledger.projects.proj = project
  return ledger
}

describe('the ledger record', () => {
  const signer = new RecordSigner(KEY)

  it('reads back what it wrote, signed for its place', () => {
    const ledger = ledgerWith(2)
    const body = `people's text\n${ledgerRecord(ledger, signer, PLACE, NOW)}`
    const read = readLedger(body, signer, PLACE)
    expect(read).toEqual({ ok: true, ledger: fitLedger(ledger, NOW) })
  })

  it('binds a state to its issue: read where written, named as a copy elsewhere, an unbound one as legacy', () => {
    const bound = { ...ledgerWith(1), issue: 501, version: 7, writtenAt: NOW }
    const body = ledgerRecord(bound, signer, dashboardPlace('acme/app', 501), NOW)
    const here = readDashboardState(body, signer, 'acme/app', 501)
    expect(here).toMatchObject({ ok: true, legacy: false, ledger: { issue: 501, version: 7 } })
    expect(readDashboardState(body, signer, 'acme/app', 502)).toMatchObject({
      ok: false,
      why: 'elsewhere',
      writtenIn: 501
    })
    // The issue number is signed: changing it breaks the signature.
    expect(
      readDashboardState(body.replace('"issue":501', '"issue":502'), signer, 'acme/app', 502)
    ).toEqual({
      ok: false,
      why: 'unsigned'
    })
    expect(readDashboardState(body, signer, 'mallory/app', 501)).toEqual({
      ok: false,
      why: 'unsigned'
    })
    const legacy = ledgerRecord(ledgerWith(1), signer, PLACE, NOW)
    expect(readDashboardState(legacy, signer, 'acme/app', 502)).toMatchObject({
      ok: true,
      legacy: true
    })
  })

  it('believes no record signed with another key, or copied to another place', () => {
    const body = ledgerRecord(ledgerWith(1), signer, PLACE, NOW)
    expect(readLedger(body, new RecordSigner('mint_other_key_987654321'), PLACE)).toEqual({
      ok: false,
      why: 'unsigned'
    })
    expect(readLedger(body, signer, 'mallory/app dashboard')).toEqual({
      ok: false,
      why: 'unsigned'
    })
  })

  it('believes no record edited by hand, and says when there is none', () => {
    const body = ledgerRecord(ledgerWith(1), signer, PLACE, NOW).replace('job_0', 'job_evil')
    expect(readLedger(body, signer, PLACE)).toEqual({ ok: false, why: 'unsigned' })
    expect(readLedger('just text', signer, PLACE)).toEqual({ ok: false, why: 'none' })
  })

  it('takes the newest record that verifies when a body holds several', () => {
    const old = ledgerWith(1)
    const newer = ledgerWith(2)
    const forged = ledgerRecord(
      ledgerWith(5),
      new RecordSigner('mint_forger_000000000'),
      PLACE,
      NOW
    )
    const body = [
      ledgerRecord(old, signer, PLACE, NOW),
      ledgerRecord(newer, signer, PLACE, NOW),
      forged
    ].join('\n')
    const read = readLedger(body, signer, PLACE)
    expect(read.ok && read.ledger.projects.proj?.runs).toHaveLength(2)
  })

  it('cannot be closed early by what a title holds', () => {
    const ledger = ledgerWith(1)
    const job = ledger.projects.proj?.jobs[0]
    if (job?.changes[0]) job.changes[0].title = 'evil --> <!-- mintlify-agent-ledger sig=00 {} -->'
    const record = ledgerRecord(ledger, signer, PLACE, NOW)
    expect(record.indexOf('-->')).toBe(record.length - 3)
    expect(findRecords(record, 'mintlify-agent-ledger')).toHaveLength(1)
    const read = readLedger(record, signer, PLACE)
    expect(read.ok && read.ledger.projects.proj?.jobs[0]?.changes[0]?.title).toContain('-->')
  })

  it('drops fields out of shape instead of trusting them', () => {
    const json = JSON.stringify({
      v: 1,
      projects: {
        p: {
          documented: { sha: 'not a sha', at: 'yesterday' },
          jobs: [{ id: 5, state: null, changes: 'many' }],
          spend: [1, 'two', 3]
        }
      }
    })
    const body = `<!-- mintlify-agent-ledger sig=${signer.sign(PLACE, json)} ${json} -->`
    const read = readLedger(body, signer, PLACE)
    if (!read.ok) throw new Error('expected a ledger')
    expect(read.ledger.projects.p).toMatchObject({
      documented: undefined,
      jobs: [{ id: '', state: '', changes: [] }],
      spend: [1, 3]
    })
  })

  it('stays within its share of the body however long the history, saying how much it summarised', () => {
    const fitted = fitLedger(ledgerWith(5000, 500), NOW)
    const project = fitted.projects.proj
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(24_000)
    expect(project?.runs.length).toBeLessThanOrEqual(20)
    expect((project?.runs.length ?? 0) + (project?.olderRuns ?? 0)).toBe(5000)
    for (const job of project?.jobs ?? []) expect(job.changes.length + job.moreChanges).toBe(500)
  })

  it('forgets spending older than 31 days', () => {
    const ledger = ledgerWith(0)
    if (ledger.projects.proj)
      ledger.projects.proj.spend = [NOW - 32 * DAY, NOW - 8 * DAY, NOW - DAY]
    expect(fitLedger(ledger, NOW).projects.proj?.spend).toEqual([NOW - 8 * DAY, NOW - DAY])
  })

  it('keeps the jobs of the last 30 days beyond the last ten, without their changes, and stays bounded', () => {
    const ledger = ledgerWith(20, 20)
    const project = ledger.projects.proj
    if (!project) throw new Error('no project')
    project.jobs = Array.from({ length: 200 }, (_, j) => ({
      id: `job_${j}`,
      prLink: `https://github.com/acme/docs/pull/${1000 + j}`,
      state: 'merged',
      startedAt: NOW - (200 - j) * 4 * 3_600_000,
      endedAt: NOW - (199 - j) * 4 * 3_600_000,
      changes: Array.from({ length: 20 }, (_, i) => ({
        sha: String(i).padStart(40, '0'),
        pr: i + 1,
        title: `Change ${i} ${'x'.repeat(90)}`
      })),
      moreChanges: 0
    }))
    const fitted = fitLedger(ledger, NOW).projects.proj
    expect(JSON.stringify(fitLedger(ledger, NOW)).length).toBeLessThanOrEqual(24_000)
    // The last ten with their changes (as many as fit), up to 50 more of the window without.
    expect(fitted?.jobs).toHaveLength(60)
    expect(fitted?.jobs.at(-1)?.id).toBe('job_199')
    expect(fitted?.jobs[0]?.changes).toEqual([])
    expect(fitted?.jobs[0]?.moreChanges).toBe(20)
    for (const job of fitted?.jobs ?? []) expect(job.changes.length + job.moreChanges).toBe(20)
    // Older than 30 days, or without a docs pull request: only among the last ten.
    project.jobs[0] = { ...project.jobs[0], startedAt: NOW - 31 * DAY } as (typeof project.jobs)[0]
    project.jobs = project.jobs.slice(0, 12)
    project.jobs[1] = { ...project.jobs[1], prLink: undefined } as (typeof project.jobs)[0]
    expect(fitLedger(ledger, NOW).projects.proj?.jobs.map(j => j.id)).toEqual(
      Array.from({ length: 10 }, (_, j) => `job_${j + 2}`)
    )
  })

  it('keeps a job whose docs pull request is still open, however old: max-open counts it and expire-after closes it', () => {
    const ledger = ledgerWith(0)
    const project = ledger.projects.proj
    if (!project) throw new Error('no project')
    const job = (j: number, state: string, daysAgo: number) => ({
      id: `job_${j}`,
      prLink: `https://github.com/acme/docs/pull/${1000 + j}`,
      state,
      startedAt: NOW - daysAgo * DAY,
      changes: [],
      moreChanges: 0
    })
    project.jobs = [
      job(0, 'open', 90),
      job(1, 'merged', 80),
      job(2, 'started', 60),
      ...Array.from({ length: 10 }, (_, j) => job(j + 3, 'merged', 20 - j))
    ]
    const kept = fitLedger(ledger, NOW).projects.proj
    expect(kept?.jobs.map(j => j.id)).toEqual([
      'job_0',
      'job_2',
      ...Array.from({ length: 10 }, (_, j) => `job_${j + 3}`)
    ])
    expect(kept?.olderJobs).toBe(1)
    // At most 50 such jobs beyond the last ten, the newest.
    project.jobs = Array.from({ length: 70 }, (_, j) => job(j, 'open', 200 - j))
    const many = fitLedger(ledger, NOW).projects.proj?.jobs
    expect(many).toHaveLength(60)
    expect(many?.[0]?.id).toBe('job_10')
  })

  it('counts starts per day for 31 days, dropping counts out of shape', () => {
    const json = JSON.stringify({
      v: 1,
      projects: {
        p: {
          startsByDay: {
            '2026-11-20': 3,
            '2026-10-01': 2,
            bad: 4,
            '2026-11-21': -1,
            '2026-11-22': 1.5
          }
        }
      }
    })
    const signer = new RecordSigner(KEY)
    const body = `<!-- mintlify-agent-ledger sig=${signer.sign(PLACE, json)} ${json} -->`
    const read = readLedger(body, signer, PLACE)
    if (!read.ok) throw new Error('expected a ledger')
    expect(read.ledger.projects.p?.startsByDay).toEqual({ '2026-11-20': 3, '2026-10-01': 2 })
    expect(fitLedger(read.ledger, NOW).projects.p?.startsByDay).toEqual({ '2026-11-20': 3 })
  })

  it('shortens titles to one line', () => {
    expect(ledgerTitle('Fix\n\nthe   thing')).toBe('Fix the thing')
    expect(ledgerTitle('y'.repeat(300))).toHaveLength(100)
  })
})

describe('outcomes', () => {
  it('reckons by the docs pull request’s creation, in hours under two days and days beyond', () => {
    const project = emptyProject()
    const job = (state: string, startedAt: number, endedAt?: number, prCreatedAt?: number) => ({
      id: `job_${project.jobs.length}`,
      prLink: `https://github.com/acme/docs/pull/${project.jobs.length + 1}`,
      state,
      startedAt,
      endedAt,
      prCreatedAt,
      changes: [],
      moreChanges: 0
    })
    project.jobs.push(
      job('merged', NOW - 40 * DAY, NOW - 39 * DAY),
      // Started before the window, opened within it: counted.
      job('merged', NOW - 31 * DAY, NOW - 29 * DAY, NOW - 29.5 * DAY),
      job('merged', NOW - 5 * DAY, NOW - 5 * DAY + 3 * 3_600_000),
      job('closed', NOW - 4 * DAY, NOW - 3 * DAY),
      job('expired', NOW - 3 * DAY, NOW),
      job('open', NOW - DAY),
      job('ended', NOW - DAY),
      { ...job('active', NOW), prLink: undefined }
    )
    project.startsByDay = { '2026-10-01': 9, '2026-11-01': 2, '2026-11-24': 4 }
    const o = outcomes(project, NOW)
    expect(o).toMatchObject({ started: 6, merged: 2, closed: 1, expired: 1, open: 1, decided: 4 })
    expect(o.acceptance).toBe(0.5)
    expect(o.medianToMerge).toBe((2 * DAY + 3 * 3_600_000) / 2)
    expect(o.creditsPerMerge).toBe(540)
    expect(hoursOrDays(30 * 60_000)).toBe('under an hour')
    expect(hoursOrDays(3_600_000)).toBe('1 hour')
    expect(hoursOrDays(47 * 3_600_000)).toBe('47 hours')
    expect(hoursOrDays(2.5 * DAY)).toBe('2.5 days')
    const body = renderDashboard(
      { v: 1, projects: { proj: project } },
      { repository: 'acme/app', serverUrl: 'https://github.com', now: NOW }
    )
    expect(body).toContain('- **Accepted**: 50% (2 merged of 4 decided)')
    expect(body).toContain('- **Median time from job start to merge**: 26 hours')
    expect(body).toContain('- **Credits per merged docs pull request (estimate)**: about 540')
  })

  it('says so when nothing is decided or merged, and shows nothing for a project without work', () => {
    const project = emptyProject()
    const view = { repository: 'acme/app', serverUrl: 'https://github.com', now: NOW }
    expect(renderDashboard({ v: 1, projects: { proj: project } }, view)).not.toContain('Outcomes')
    project.startsByDay = { '2026-11-24': 1 }
    const body = renderDashboard({ v: 1, projects: { proj: project } }, view)
    expect(body).toContain('- **Accepted**: no decided pull request yet')
    expect(body).toContain('- **Median time from job start to merge**: no merged pull request yet')
  })
})

describe('outcomes: each figure with its denominator', () => {
  const view = { repository: 'acme/app', serverUrl: 'https://github.com', now: NOW }
  const job = (n: number, state: string, over: Partial<LedgerJob> = {}): LedgerJob => ({
    id: `job_${n}`,
    prLink: `https://github.com/acme/docs/pull/${n}`,
    state,
    startedAt: NOW - 5 * DAY,
    endedAt: state === 'open' ? undefined : NOW - 4 * DAY,
    changes: [],
    moreChanges: 0,
    ...over
  })

  it('counts drafts apart from the open ones, and neither as decided', () => {
    const project = emptyProject()
    project.jobs.push(
      job(1, 'merged', { personCommitted: false }),
      job(2, 'closed'),
      job(3, 'open'),
      job(4, 'open', { draft: true }),
      job(5, 'active', { draft: true })
    )
    const o = outcomes(project, NOW)
    expect(o).toMatchObject({ merged: 1, closed: 1, open: 1, drafts: 2, decided: 2 })
    expect(o.acceptance).toBe(0.5)
    const body = renderDashboard({ v: 1, projects: { proj: project } }, view)
    expect(body).toContain('1 still open · 2 open as drafts, counted apart')
    expect(body).toContain(
      '- **Accepted**: 50% (1 merged of 2 decided): merged ÷ decided, where decided is merged + closed without merge + expired; open pull requests and drafts are not decided yet'
    )
  })

  it('reckons the zero-touch rate over the merged ones whose commits were read, and says how many were not', () => {
    const project = emptyProject()
    project.jobs.push(
      job(1, 'merged', { personCommitted: false }),
      job(2, 'merged', { personCommitted: false }),
      job(3, 'merged', { personCommitted: true }),
      job(4, 'merged'),
      job(5, 'expired')
    )
    const o = outcomes(project, NOW)
    expect(o).toMatchObject({ merged: 4, zeroTouch: 2, touchKnown: 3, decided: 5 })
    const body = renderDashboard({ v: 1, projects: { proj: project } }, view)
    expect(body).toContain(
      "- **Zero-touch**: 67% (2 of 3 merged without a person's commit; 1 merged not read yet): merged without a person's commit ÷ merged whose commits were read"
    )
    expect(body).toContain(
      '- **Median time from job start to merge**: 24 hours (the middle of 4 merged)'
    )
    expect(body).toMatch(/\(estimate\)\*\*: about \d+ \(an estimate, not a measure/)
    project.jobs.splice(0, 4)
    expect(renderDashboard({ v: 1, projects: { proj: project } }, view)).toContain(
      '- **Zero-touch**: no merged pull request read yet'
    )
  })

  it('keeps what it learnt of people’s work through the signed ledger, and drops it when out of shape', () => {
    const signer = new RecordSigner(KEY)
    const project = emptyProject()
    project.jobs.push(
      job(1, 'open', { draft: true, kept: { why: 'it has the label docs-agent-keep', at: NOW } }),
      job(2, 'merged', { personCommitted: true })
    )
    // Out of shape: dropped, never trusted.
    project.jobs.push(
      job(3, 'open', { draft: 'yes', personCommitted: 1, kept: { why: 7, at: NOW } } as never)
    )
    const body = ledgerRecord({ v: 1, projects: { p: project } }, signer, PLACE, NOW)
    const read = readLedger(body, signer, PLACE)
    if (!read.ok) throw new Error(read.why)
    expect(read.ledger.projects.p?.jobs[0]).toMatchObject({
      draft: true,
      kept: { why: 'it has the label docs-agent-keep', at: NOW }
    })
    expect(read.ledger.projects.p?.jobs[1]?.personCommitted).toBe(true)
    const odd = read.ledger.projects.p?.jobs[2]
    expect([odd?.draft, odd?.personCommitted, odd?.kept]).toEqual([undefined, undefined, undefined])
    const shown = renderDashboard(read.ledger, view)
    expect(shown).toContain('#### Kept open past expire-after')
    expect(shown).toContain('it has the label docs-agent-keep (as of 2026-11-24 12:00 UTC)')
  })
})

describe('max-jobs', () => {
  it('reads a count per day, per week or per 30 days', () => {
    expect(jobBudget('5/day')).toEqual({ max: 5, windowMs: DAY, text: '5/day' })
    expect(jobBudget('20/week')).toMatchObject({ max: 20, windowMs: 7 * DAY })
    expect(jobBudget('20/month')).toEqual({ max: 20, windowMs: 30 * DAY, text: '20/month' })
    for (const bad of ['', '5', '0/day', '5/year', 'five/day', '-1/day', '10000/day', '20/Month'])
      expect(jobBudget(bad)).toBeUndefined()
  })

  it('counts starts in a rolling window and says when the next place frees', () => {
    const limits = { maxJobs: { max: 2, windowMs: DAY, text: '2/day' }, creditsPerRun: 180 }
    const state = (spend: number[]) => budgetStates(spend, limits, NOW)[0]
    expect(state([NOW - 2 * DAY])).toMatchObject({ used: 0, left: 2, allowed: 2 })
    expect(state([NOW - 3_600_000])).toMatchObject({ used: 1, left: 1 })
    const full = state([NOW - 5_000_000, NOW - 3_600_000, NOW - 2 * DAY])
    expect(full).toMatchObject({ used: 2, left: 0, freesAt: NOW - 5_000_000 + DAY })
  })

  it('counts max-credits as the starts its estimate fits in, and holds at the tightest budget', () => {
    const limits = {
      maxJobs: { max: 10, windowMs: 30 * DAY, text: '10/month' },
      maxCredits: { max: 1000, windowMs: 30 * DAY },
      creditsPerRun: 300
    }
    const spend = [NOW - 20 * DAY, NOW - 10 * DAY, NOW - DAY]
    const states = budgetStates(spend, limits, NOW)
    expect(states.map(s => [s.key, s.used, s.allowed, s.left])).toEqual([
      ['max-jobs', 3, 10, 7],
      ['max-credits', 3, 3, 0]
    ])
    const binding = tightest(states)
    expect(binding).toMatchObject({ key: 'max-credits', freesAt: NOW - 20 * DAY + 30 * DAY })
    expect(overBudget(binding as NonNullable<typeof binding>, limits, NOW)).toBe(
      `Over budget: 3 jobs and follow-ups, about 900 credits at 300 a run (an estimate), in the window of 'max-credits: 1000'; the next one frees at ${new Date(NOW + 10 * DAY).toISOString().slice(0, 16).replace('T', ' ')} UTC.`
    )
    expect(tightest(budgetStates(spend, { creditsPerRun: 180 }, NOW))).toBeUndefined()
  })
})

describe('the dashboard for people', () => {
  const view = { repository: 'acme/app', serverUrl: 'https://github.com', now: NOW }

  it('counts the jobs that left the ledger, as it counts runs: "and 36 earlier jobs"', () => {
    const ledger = ledgerWith(0)
    const project = ledger.projects.proj
    if (!project) throw new Error('no project')
    // Old jobs without a docs pull request in the outcomes' window leave the ledger.
    project.jobs = Array.from({ length: 46 }, (_, j) => ({
      id: `job_${j}`,
      state: 'closed',
      startedAt: NOW - 60 * DAY + j,
      changes: [],
      moreChanges: 0
    }))
    const fitted = fitLedger(ledger, NOW)
    expect(fitted.projects.proj?.jobs).toHaveLength(10)
    expect(fitted.projects.proj?.olderJobs).toBe(36)
    const text = renderDashboard(fitted, view)
    expect(text).toContain('… and 36 earlier jobs')
    // Read back and fitted again, nothing is counted twice.
    const again = fitLedger(fitted, NOW)
    expect(again.projects.proj?.olderJobs).toBe(36)
    const signer = new RecordSigner(KEY)
    const read = readLedger(ledgerRecord(fitted, signer, PLACE, NOW), signer, PLACE)
    expect(read.ok && read.ledger.projects.proj?.olderJobs).toBe(36)
  })

  it('counts the uncertain requests beyond the ten it keeps: "and 3 earlier uncertain requests"', () => {
    const ledger = ledgerWith(0)
    const project = ledger.projects.proj
    if (!project) throw new Error('no project')
    project.uncertain = Array.from({ length: 13 }, (_, i) => ({
      at: NOW - 13 + i,
      what: 'new-job' as const,
      changes: [{ sha: 'c'.repeat(40), pr: 100 + i, title: `Change ${i}` }],
      why: 'no answer'
    }))
    const fitted = fitLedger(ledger, NOW)
    expect(fitted.projects.proj?.uncertain.map(u => u.changes[0]?.pr)).toEqual(
      Array.from({ length: 10 }, (_, i) => 103 + i)
    )
    expect(fitted.projects.proj?.olderUncertain).toBe(3)
    const text = renderDashboard(fitted, view)
    expect(text).toContain(
      '- … and 3 earlier uncertain requests, no longer listed: their changes were not sent again'
    )
    // Read back and fitted again, nothing is counted twice.
    const signer = new RecordSigner(KEY)
    const read = readLedger(ledgerRecord(fitted, signer, PLACE, NOW), signer, PLACE)
    if (!read.ok) throw new Error('unreadable')
    expect(fitLedger(read.ledger, NOW).projects.proj?.olderUncertain).toBe(3)
  })

  it('shows the last documented commit, the docs pull requests with their changes, and the last runs', () => {
    const ledger = ledgerWith(2)
    const project = ledger.projects.proj
    if (project) project.spend = [NOW - 1000, NOW - 2 * DAY]
    const text = renderDashboard(ledger, view)
    expect(text).toContain('### Project `proj`')
    expect(text).toContain(
      `- **Last documented commit**: [aaaaaaa](https://github.com/acme/app/commit/${'a'.repeat(40)})`
    )
    expect(text).toContain('1 in the last 24 hours, 2 in the last 7 days')
    expect(text).toContain('about 360 in the last 30 days, at 180 a run')
    expect(text).toContain('- **Budget**: none set')
    expect(text).toContain('- **Open at once**: no limit')
    // With the policy's limits: each budget used / allowed in its window, and max-open.
    const limited = renderDashboard(ledger, {
      ...view,
      limits: {
        maxJobs: { max: 20, windowMs: 30 * DAY, text: '20/month' },
        maxCredits: { max: 9000, windowMs: 30 * DAY },
        creditsPerRun: 180,
        maxOpen: 1
      }
    })
    expect(limited).toContain(
      '- **Budget**: 2 of 20 jobs and follow-ups used in the last 30 days (max-jobs: 20/month), about 360 credits'
    )
    expect(limited).toContain(
      '- **Budget**: about 360 credits of 9,000 used in the last 30 days (max-credits: 9000), room for 48 more starts'
    )
    expect(limited).toContain('- **Open at once**: at most 1 docs pull request (`max-open: 1`')
    expect(text).toContain(
      '| [acme/docs\\#\u200B100](https://github.com/acme/docs/pull/100) | `job_0` | open |'
    )
    expect(text).toContain('#### Last runs')
  })

  it('escapes what titles hold: no mention, no link, no HTML', () => {
    const ledger = ledgerWith(0)
    const change = ledger.projects.proj?.jobs[0]?.changes[0]
    if (change) change.title = '@team <img src=x> [x](https://evil.example)'
    const text = renderDashboard(ledger, view)
    expect(text).not.toContain('@team')
    expect(text).not.toMatch(/(?<!\\)<img/)
    expect(text).not.toContain('](https://evil.example)')
  })

  it('lists waiting and uncertain changes with what to do', () => {
    const ledger = ledgerWith(0)
    const project = ledger.projects.proj
    if (!project) throw new Error('no project')
    project.waiting = {
      changes: [{ sha: 'b'.repeat(40), pr: 14, title: 'Rename the flag' }],
      why: 'Over budget (max-jobs: 5/day) until 2026-11-25 10:00 UTC.',
      since: NOW
    }
    project.uncertain = [
      { at: NOW, what: 'new-job', changes: [{ sha: 'c'.repeat(40), title: 'x' }], why: 'no answer' }
    ]
    const text = renderDashboard(ledger, view)
    expect(text).toContain('#### Waiting: 1 change')
    expect(text).toContain('Over budget \\(max-jobs: 5/day\\)')
    expect(text).toContain('#### Uncertain')
    expect(text).toContain('does not send these changes again by itself')
  })
})

describe('merging two runs’ states', () => {
  const T = Date.UTC(2026, 10, 24, 12)
  const run = (id: string) => ({
    at: T,
    url: '',
    run: id,
    step: 'docs',
    result: 'job started',
    changes: 0,
    note: ''
  })
  it('two starts in the same millisecond, one of each run, are two starts', () => {
    const theirs = emptyLedger()
    const ours = emptyLedger()
    const p = (theirs.projects.p = emptyProject())
    noteStart(p, T)
    p.runs.push(run('b'))
    const before = emptyProject()
    const q = (ours.projects.p = emptyProject())
    noteStart(q, T)
    q.runs.push(run('a'))
    const merged = mergedLedger(theirs, ours, { p: addedItems(before, q) }).projects.p
    expect(merged?.spend).toEqual([T, T])
    expect(merged?.startsByDay?.['2026-11-24']).toBe(2)
    // Held already (the other run read it): not added twice.
    const again = mergedLedger(merged ? { ...theirs, projects: { p: merged } } : theirs, ours, {
      p: addedItems(before, q)
    }).projects.p
    expect(again?.spend).toEqual([T, T])
  })
})
