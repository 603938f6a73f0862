import { describe, expect, it } from 'vitest'
import { budgetStates } from '../../src/agent/ledger/budget.js'
import {
  LEDGER_FORMAT,
  type Ledger,
  dashboardPlace,
  emptyLedger,
  emptyProject,
  fitLedger,
  ledgerRecord,
  readDashboardState,
  readLedger,
  utcDay
} from '../../src/records/ledger.js'
import { MIGRATIONS, upgraded } from '../../src/records/ledger/migrations.js'
import { MAX_STARTS, decodeStarts, encodeStarts } from '../../src/records/ledger/starts.js'
import { RecordSigner, commentSafeJson } from '../../src/records/record.js'
import { signedStateBody, stateIn } from '../support/ledger-states.js'

const DAY = 86_400_000
const HOUR = 3_600_000
const NOW = Date.UTC(2026, 10, 24, 12)

const KEY = 'mint_test_key_0123456789'
const signer = new RecordSigner(KEY)
/** A body holding `state` as this key signs it, whatever its format. */
const signedBody = (state: Record<string, unknown>, issue?: number): string =>
  signedStateBody(state, { repository: 'acme/app', issue, key: KEY })

/** `n` starts spread evenly over the 31 days before NOW. */
const aMonthOf = (n: number): number[] =>
  Array.from({ length: n }, (_, i) => Math.floor(NOW - 31 * DAY + ((i + 1) * 31 * DAY) / n) - 1)

describe('the starts the budgets count, in their compact form', () => {
  it('writes the first start and then each gap in base 36, oldest first, and reads back the same times', () => {
    const starts = [NOW, NOW - HOUR, NOW - HOUR, NOW - 20 * DAY]
    const text = encodeStarts(starts)
    expect(text).toBe([NOW - 20 * DAY, 20 * DAY - HOUR, 0, HOUR].map(n => n.toString(36)).join(','))
    expect(decodeStarts(text)).toEqual([...starts].sort((a, b) => a - b))
    expect(encodeStarts([])).toBe('')
    expect(decodeStarts('')).toEqual([])
    // A start that is no whole number of milliseconds since the epoch is left out.
    expect(decodeStarts(encodeStarts([1.5, -3, Number.NaN, 7]))).toEqual([7])
  })

  it('reads nothing from a form out of shape, and the newest MAX_STARTS of a longer one', () => {
    for (const bad of ['x!', '1,,2', 'ABC', '1 2', 'zzzzzzzzzzzz', 'zzzzzzzzzzz,zzzzzzzzzzz'])
      expect(decodeStarts(bad), bad).toBeUndefined()
    const many = Array.from({ length: MAX_STARTS + 5 }, (_, i) => NOW + i)
    expect(decodeStarts(encodeStarts(many))).toEqual(many.slice(-MAX_STARTS))
  })

  it('keeps a month of starts through the signed state, within its share of the body, for a budget over 30 days', () => {
    const ledger = emptyLedger()
    const project = emptyProject()
    project.spend = [NOW - 40 * DAY, ...aMonthOf(MAX_STARTS)]
    // A busy ledger beside them: twenty long runs, ten jobs of twenty changes, ten uncertain requests.
    for (let r = 0; r < 20; r++)
      project.runs.push({
        at: NOW - r,
        url: `https://github.com/acme/app/actions/runs/${r}`,
        run: String(r),
        step: 'docs/agent',
        result: 'pr-opened',
        changes: 1,
        note: 'n'.repeat(300)
      })
    const changes = Array.from({ length: 20 }, (_, i) => ({
      sha: String(i).padStart(40, '0'),
      pr: i + 1,
      title: `Change ${i} ${'x'.repeat(90)}`
    }))
    for (let j = 0; j < 10; j++)
      project.jobs.push({ id: `job_${j}`, state: 'open', startedAt: NOW, changes, moreChanges: 0 })
    for (let u = 0; u < 10; u++)
      project.uncertain.push({ at: NOW, what: 'new-job', changes, why: 'no answer' })
    ledger.projects.proj = project
    const record = ledgerRecord(ledger, signer, dashboardPlace('acme/app'), NOW)
    const written = stateIn(record)
    expect(commentSafeJson(written).length).toBeLessThanOrEqual(24_000)
    const spend = (written.projects as Record<string, { spend: unknown }>).proj?.spend
    expect(typeof spend).toBe('string')
    expect((spend as string).length).toBeLessThanOrEqual(10_100)
    const read = readLedger(record, signer, dashboardPlace('acme/app'))
    if (!read.ok) throw new Error(read.why)
    // Every start of the last 31 days, none older; the rest of the ledger gave way to them.
    expect(read.ledger.projects.proj?.spend).toEqual(aMonthOf(MAX_STARTS))
    expect(read.ledger.projects.proj?.runs.length).toBeLessThan(20)
    const month = {
      maxJobs: { max: 1900, windowMs: 30 * DAY, text: '1900/month' },
      creditsPerRun: 1
    }
    expect(budgetStates(read.ledger.projects.proj?.spend ?? [], month, NOW)[0]).toMatchObject({
      used: Math.ceil((MAX_STARTS * 30) / 31),
      left: 0
    })
  })

  it('takes about 6 characters a start: 310 starts (10 a day for a month) in under 2,000', () => {
    expect(encodeStarts(aMonthOf(310)).length).toBeLessThan(2_000)
    expect(JSON.stringify(aMonthOf(310)).length).toBeGreaterThan(4_000)
  })
})

describe('the format version', () => {
  it('has one migration from each older format to the next', () => {
    expect(MIGRATIONS).toHaveLength(LEDGER_FORMAT - 1)
  })

  it('says a state is written in a newer format, and never reads it', () => {
    const newer = { v: LEDGER_FORMAT + 1, issue: 501, projects: { p: { spend: [1, 2] } }, more: 1 }
    const body = signedBody(newer, 501)
    const expected = { ok: false, why: 'newer', format: LEDGER_FORMAT + 1 }
    expect(readDashboardState(body, signer, 'acme/app', 501)).toEqual(expected)
    expect(readLedger(body, signer, dashboardPlace('acme/app', 501))).toEqual(expected)
    // Copied into another issue, or with no issue at all: still a newer version's.
    expect(readDashboardState(body, signer, 'acme/app', 502)).toEqual(expected)
    const unbound = signedBody({ ...newer, issue: undefined })
    expect(readDashboardState(unbound, signer, 'acme/app', 501)).toEqual(expected)
    // Not signed with this key: nobody's word that a newer version wrote it.
    const forged = new RecordSigner('mint_forger_000000000')
    expect(readDashboardState(body, forged, 'acme/app', 501)).toEqual({
      ok: false,
      why: 'unsigned'
    })
  })

  it('reads the newest record that verifies: a newer format written after this one decides', () => {
    const place = dashboardPlace('acme/app', 501)
    const ours = ledgerRecord({ ...emptyLedger(), issue: 501 }, signer, place, NOW)
    const theirs = signedBody({ v: LEDGER_FORMAT + 1, issue: 501 }, 501)
    expect(readDashboardState(`${ours}\n${theirs}`, signer, 'acme/app', 501)).toMatchObject({
      why: 'newer'
    })
    expect(readDashboardState(`${theirs}\n${ours}`, signer, 'acme/app', 501)).toMatchObject({
      ok: true
    })
  })

  it('reads no state whose format is not a whole number from 1', () => {
    for (const v of [0, -1, 1.5, '2', null, undefined]) {
      const body = signedBody({ v, projects: {} })
      expect(readLedger(body, signer, dashboardPlace('acme/app')), String(v)).toEqual({
        ok: false,
        why: 'unreadable'
      })
    }
  })

  it('reads each field on its own: out of shape it is dropped or takes its default, in shape it is kept within its cap', () => {
    const read = (state: Record<string, unknown>) => {
      const result = readLedger(signedBody(state), signer, dashboardPlace('acme/app'))
      if (!result.ok) throw new Error(result.why)
      return result.ledger
    }
    const format = LEDGER_FORMAT
    expect(read({ v: format, projects: 'many', issue: 0, writtenAt: 1.5 })).toEqual({
      v: format,
      projects: {}
    })
    const names = Array.from({ length: 60 }, (_, i) => `acme/repo${i}`)
    const job = {
      id: 'job_1',
      state: 'merged',
      startedAt: NOW,
      changes: [{ sha: 'a'.repeat(40), title: 't'.repeat(150), repo: 'not a repository' }, 5],
      moreChanges: 3,
      moreRepositories: ['bad name', ...names],
      impact: {
        at: NOW,
        days: 7,
        before: [1, 2, 3, 4, null, 0],
        after: [1, 2, 3, 4, 5, 6],
        unsure: 'u'.repeat(400),
        commentUrl: 'http://plain.example'
      },
      agentEmail: 'Agent@Example.COM',
      kept: { why: 'w'.repeat(250), at: NOW }
    }
    const project = read({
      v: format,
      projects: {
        p: {
          jobs: [job, { ...job, impact: { ...job.impact, after: [1, 2] }, moreRepositories: [] }],
          waiting: {
            changes: [],
            why: 'x',
            since: NOW,
            approvedAt: NOW,
            approvedBy: 'not a login!'
          },
          uncertain: [{ id: 'BAD ID', what: 'other', changes: 'none', moreChanges: 2.7 }],
          spend: encodeStarts([NOW]),
          repositories: {
            'acme/api': {
              sha: 'b'.repeat(40),
              at: 1,
              name: 'acme/api',
              branch: 'main',
              formerly: ['not a name!', ...names]
            }
          },
          impactDays: 29
        }
      }
    }).projects.p
    const [first, second] = project?.jobs ?? []
    // A change that is no record reads with its defaults, as format 1 read it.
    expect(first?.changes).toEqual([
      { sha: 'a'.repeat(40), title: 't'.repeat(100), repo: undefined },
      { sha: '', title: '' }
    ])
    expect(first?.moreRepositories).toEqual(names.slice(0, 50))
    expect(first?.impact).toEqual({ ...job.impact, unsure: 'u'.repeat(300), commentUrl: undefined })
    expect(first?.agentEmail).toBe('agent@example.com')
    expect(first?.kept).toEqual({ why: 'w'.repeat(200), at: NOW })
    expect([second?.impact, second?.moreRepositories]).toEqual([undefined, undefined])
    expect(project?.waiting).toMatchObject({ approvedBy: undefined, approvedAt: undefined })
    expect(project?.uncertain).toEqual([
      { id: undefined, at: 0, what: 'new-job', changes: [], moreChanges: 2, why: '' }
    ])
    expect(project?.spend).toEqual([NOW])
    expect(Object.keys(project?.repositories ?? {})).toEqual(['acme/api'])
    // Former names out of shape are dropped, and a few kept.
    expect(project?.repositories?.['acme/api']?.formerly).toEqual(names.slice(0, 5))
    expect(project?.impactDays).toBeUndefined()
  })

  it('reads no record that is not JSON', () => {
    const json = '{v: 2}'
    const body = `<!-- mintlify-agent-ledger sig=${signer.sign(dashboardPlace('acme/app'), json)} ${json} -->`
    expect(readLedger(body, signer, dashboardPlace('acme/app'))).toEqual({
      ok: false,
      why: 'unreadable'
    })
  })

  it('writes the current format, whatever format the ledger was read in', () => {
    const old: Ledger = { v: 1, projects: { p: { ...emptyProject(), spend: [NOW - HOUR] } } }
    const record = ledgerRecord(old, signer, dashboardPlace('acme/app'), NOW)
    expect(stateIn(record)).toMatchObject({
      v: LEDGER_FORMAT,
      projects: { p: { spend: (NOW - HOUR).toString(36) } }
    })
  })
})

describe('migration from format 1 to 2', () => {
  const migrate = MIGRATIONS[0] as (state: Record<string, unknown>) => Record<string, unknown>
  const at = (iso: string): number => Date.parse(iso)
  const W = at('2026-11-24T12:00:00Z')

  it('writes the week of starts format 1 kept in the compact form, changes nothing else, and is pure', () => {
    const v1 = {
      v: 1,
      issue: 501,
      version: 9,
      writtenAt: W,
      projects: {
        p: {
          documented: { sha: 'a'.repeat(40), at: W },
          jobs: [{ id: 'job_1', state: 'open', startedAt: W - HOUR, changes: [], moreChanges: 0 }],
          waiting: null,
          uncertain: [],
          spend: [W - HOUR, W - 2 * DAY],
          runs: [],
          olderRuns: 4
        },
        odd: 5
      }
    }
    const before = structuredClone(v1)
    const v2 = migrate(v1)
    expect(v1).toEqual(before)
    expect(migrate(v1)).toEqual(v2)
    expect(v2).toEqual({
      ...v1,
      v: 2,
      projects: {
        ...v1.projects,
        p: { ...v1.projects.p, spend: encodeStarts(v1.projects.p.spend) }
      }
    })
  })

  it('counts each start format 1 knew only by its day at the latest time it can have started', () => {
    const kept = [at('2026-11-17T15:00:00Z'), at('2026-11-23T09:00:00Z')]
    const v1 = {
      v: 1,
      writtenAt: W,
      projects: {
        p: {
          spend: kept,
          // The 17th: one start before the week format 1 kept (12:00 on the 17th), one after.
          startsByDay: { '2026-11-10': 3, '2026-11-17': 2, '2026-11-23': 1, bad: 9 }
        }
      }
    }
    const project = (upgraded(v1, 1).projects as Record<string, { spend: string }>).p
    const end10th = at('2026-11-11T00:00:00Z') - 1
    expect(decodeStarts(project?.spend ?? '')).toEqual([
      end10th,
      end10th,
      end10th,
      W - 7 * DAY,
      ...kept
    ])
    // Read and counted an hour later: a month holds all six, the week only the two format 1 kept.
    const body = signedBody(v1)
    const read = readLedger(body, signer, dashboardPlace('acme/app'))
    if (!read.ok) throw new Error(read.why)
    const spend = read.ledger.projects.p?.spend ?? []
    const window = (days: number) => ({
      maxJobs: { max: 100, windowMs: days * DAY, text: `100/${days}` },
      creditsPerRun: 1
    })
    expect(budgetStates(spend, window(30), W + HOUR)[0]?.used).toBe(6)
    expect(budgetStates(spend, window(7), W + HOUR)[0]?.used).toBe(2)
    expect(read.ledger.projects.p?.startsByDay).toEqual({
      '2026-11-10': 3,
      '2026-11-17': 2,
      '2026-11-23': 1
    })
  })

  it('without a time of writing, no later than the oldest start kept; a day format 1 kept whole adds nothing', () => {
    const kept = [at('2026-11-17T15:00:00Z'), at('2026-11-17T16:00:00Z')]
    const v1 = { v: 1, projects: { p: { spend: kept, startsByDay: { '2026-11-17': 3 } } } }
    const project = (upgraded(v1, 1).projects as Record<string, { spend: string }>).p
    expect(decodeStarts(project?.spend ?? '')).toEqual([kept[0], ...kept])
    const whole = { v: 1, projects: { p: { spend: kept, startsByDay: { '2026-11-17': 2 } } } }
    const same = (upgraded(whole, 1).projects as Record<string, { spend: string }>).p
    expect(decodeStarts(same?.spend ?? '')).toEqual(kept)
    expect(utcDay(kept[0] as number)).toBe('2026-11-17')
  })

  it('leaves what it cannot read to the schema, which drops it field by field', () => {
    const v1 = {
      v: 1,
      projects: { a: { spend: 'soon', startsByDay: [1] }, b: 7, c: { spend: [NOW, 'x'] } }
    }
    const read = readLedger(signedBody(v1), signer, dashboardPlace('acme/app'))
    if (!read.ok) throw new Error(read.why)
    expect(read.ledger.projects.a?.spend).toEqual([])
    expect(read.ledger.projects.b).toEqual(emptyProject())
    expect(read.ledger.projects.c?.spend).toEqual([NOW])
    expect(fitLedger(read.ledger, NOW).projects.c?.spend).toEqual([NOW])
  })
})
