import { describe, expect, it } from 'vitest'
import { budget as sharedBudget } from '../../../src/agent/gates/budget.js'
import { GATES, OWN_GATES } from '../../../src/changes/gates/order.js'
import { emptyProject } from '../../../src/records/ledger.js'
import {
  NOW,
  TestLedger,
  batchInput,
  batchOf,
  pull,
  settingsOf
} from '../../support/gate-inputs.js'

const HOUR = 3_600_000
/** The budget gate as a change run with the dashboard applies it, fed from its batch. */
const budget = GATES.batch.find(g => g.name === sharedBudget.name)!
const ownBudget = OWN_GATES.limits.find(g => g.name === sharedBudget.name)!
const maxJobs = { max: 2, windowMs: 24 * HOUR, text: '2/day' }
const spent = (...hoursAgo: number[]) => ({
  ...emptyProject(),
  spend: hoursAgo.map(h => NOW - h * HOUR)
})

describe('the max-jobs gate', () => {
  it('passes without max-jobs, and with jobs left in the window', async () => {
    expect(await budget.check(batchInput({ ledger: new TestLedger(spent(1, 2)) }))).toEqual({
      kind: 'pass'
    })
    const left = batchInput({
      settings: settingsOf({ maxJobs }),
      ledger: new TestLedger(spent(1, 30), maxJobs)
    })
    expect(await budget.check(left)).toEqual({ kind: 'pass' })
  })

  it('holds the batch over budget, saying when the next job frees', async () => {
    const over = batchInput({
      settings: settingsOf({ maxJobs }),
      ledger: new TestLedger(spent(3, 5), maxJobs),
      batch: batchOf([pull(1), pull(2), pull(3)])
    })
    expect(await budget.check(over)).toEqual({
      kind: 'hold',
      why: "Over budget: 2 jobs and follow-ups in the window of 'max-jobs: 2/day'; the next one frees at 2026-11-25 07:00 UTC. 3 changes wait on the dashboard, and the next run takes them.",
      // On an empty ledger the range keeps its start, so that later changes join the batch.
      written: { base: 'a'.repeat(40) }
    })
  })

  it('keeps the approval of this run’s tick with the held batch', async () => {
    const over = batchInput({
      settings: settingsOf({ maxJobs, approval: 'dashboard' }),
      ledger: new TestLedger(spent(3, 5), maxJobs),
      approvedBy: 'lead'
    })
    expect(await budget.check(over)).toMatchObject({
      kind: 'hold',
      why: expect.stringContaining('1 change waits on the dashboard'),
      written: { approval: { approvedBy: 'lead', approvedAt: NOW } }
    })
  })

  it('skips a change on its own over budget, and passes one no dashboard counts', async () => {
    const over = new TestLedger(spent(3, 5), maxJobs)
    const own = { settings: settingsOf({ maxJobs }), now: () => NOW, what: 'pull request #7' }
    expect(await ownBudget.check({ ...own, ledger: over })).toEqual({
      kind: 'skip',
      why: expect.stringMatching(
        /^Over budget: .* Nothing starts for pull request #7, which runs on its own, outside the dashboard's batch/
      )
    })
    expect(await ownBudget.check(own)).toEqual({ kind: 'pass' })
  })
})
