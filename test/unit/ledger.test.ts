import { describe, expect, it } from 'vitest'
import { budgetState, parseMaxJobs } from '../../src/agent/ledger/budget.js'
import { renderDashboard } from '../../src/agent/ledger/dashboard-body.js'
import {
  type Ledger,
  emptyLedger,
  emptyProject,
  fitLedger,
  ledgerRecord,
  ledgerTitle,
  readLedger
} from '../../src/agent/ledger/ledger.js'
import { RecordSigner, findRecords } from '../../src/agent/record.js'
import { InputError } from '../../src/runner/errors.js'

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

  it('forgets spending older than a week', () => {
    const ledger = ledgerWith(0)
    if (ledger.projects.proj) ledger.projects.proj.spend = [NOW - 8 * DAY, NOW - DAY]
    expect(fitLedger(ledger, NOW).projects.proj?.spend).toEqual([NOW - DAY])
  })

  it('shortens titles to one line', () => {
    expect(ledgerTitle('Fix\n\nthe   thing')).toBe('Fix the thing')
    expect(ledgerTitle('y'.repeat(300))).toHaveLength(100)
  })
})

describe('max-jobs', () => {
  it('reads a count per day or per week', () => {
    expect(parseMaxJobs('max-jobs', '5/day')).toEqual({ max: 5, windowMs: DAY, text: '5/day' })
    expect(parseMaxJobs('max-jobs', ' 20 / Week ')).toMatchObject({ max: 20, windowMs: 7 * DAY })
    expect(parseMaxJobs('max-jobs', '')).toBeUndefined()
    for (const bad of ['5', '0/day', '5/month', 'five/day', '-1/day'])
      expect(() => parseMaxJobs('max-jobs', bad)).toThrow(InputError)
  })

  it('counts starts in a rolling window and says when the next place frees', () => {
    const budget = { max: 2, windowMs: DAY, text: '2/day' }
    expect(budgetState([NOW - 2 * DAY], budget, NOW)).toEqual({ used: 0, left: 2 })
    expect(budgetState([NOW - 3_600_000], budget, NOW)).toEqual({ used: 1, left: 1 })
    const full = budgetState([NOW - 5_000_000, NOW - 3_600_000, NOW - 2 * DAY], budget, NOW)
    expect(full).toEqual({ used: 2, left: 0, freesAt: NOW - 5_000_000 + DAY })
  })
})

describe('the dashboard for people', () => {
  const view = { repository: 'acme/app', serverUrl: 'https://github.com', now: NOW }

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
    expect(text).toContain('about 360 in the last 7 days, at 180 a run')
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
