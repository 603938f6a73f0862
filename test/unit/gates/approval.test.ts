import { describe, expect, it } from 'vitest'
import { approval } from '../../../src/changes/gates/approval.js'
import { type LedgerJob, emptyProject } from '../../../src/records/ledger.js'
import {
  NOW,
  TestLedger,
  batchInput,
  batchOf,
  jobsService,
  pull,
  settingsOf
} from '../../support/gate-inputs.js'

const gated = settingsOf({ approval: 'dashboard' })
const liveJob: LedgerJob = {
  id: 'job-1',
  state: 'active',
  startedAt: NOW - 60_000,
  changes: [],
  moreChanges: 0
}

describe('the approval gate', () => {
  it('passes without approval: dashboard, with this run’s tick, and a batch approved before', async () => {
    expect(await approval.check(batchInput())).toEqual({ kind: 'pass' })
    expect(await approval.check(batchInput({ settings: gated, approvedBy: 'lead' }))).toEqual({
      kind: 'pass'
    })
    const approved = {
      ...emptyProject(),
      waiting: { changes: [], why: 'over budget', since: NOW, batch: 'mi3abc', approvedBy: 'lead' }
    }
    const kept = batchInput({ settings: gated, ledger: new TestLedger(approved) })
    expect(await approval.check(kept)).toEqual({ kind: 'pass' })
  })

  it('holds a new batch with a fresh id, the range’s start on an empty ledger, and what it would do', async () => {
    const verdict = await approval.check(
      batchInput({ settings: gated, batch: batchOf([pull(101), pull(102)]) })
    )
    expect(verdict).toEqual({
      kind: 'hold',
      why: expect.stringMatching(
        /^Awaiting approval \('approval: dashboard'\): 2 changes wait on the dashboard/
      ),
      written: {
        base: 'a'.repeat(40),
        approval: {
          batch: expect.stringMatching(/^[a-z0-9]+$/),
          wouldDo: { decision: 'new-job', promptBytes: 'Document: Change 101, Change 102'.length }
        }
      },
      // What a preview shows: the prompt a tick would send.
      wouldStart: { decision: 'new-job', prompt: 'Document: Change 101, Change 102' }
    })
  })

  it('joins the batch waiting already, and would follow up the running job it folds into', async () => {
    const project = {
      ...emptyProject(),
      documented: { sha: 'a'.repeat(40), at: NOW },
      jobs: [liveJob],
      waiting: { changes: [], why: 'Awaiting approval', since: NOW, batch: 'mi3abc' }
    }
    const service = jobsService([{ id: 'job-1', status: 'active' }])
    const ledger = new TestLedger(project)
    const verdict = await approval.check(
      batchInput({ settings: gated, ledger }, { readJob: service.readJob })
    )
    expect(verdict).toMatchObject({
      kind: 'hold',
      written: {
        base: undefined,
        approval: {
          batch: 'mi3abc',
          wouldDo: {
            decision: 'follow-up',
            job: 'job-1',
            promptBytes: 'Follow-up: Change 101'.length
          }
        }
      }
    })
    expect(service.reads).toEqual(['job-1'])
  })

  it('with fold: never, would start a new job without reading the running one', async () => {
    const project = { ...emptyProject(), jobs: [liveJob] }
    const service = jobsService([{ id: 'job-1', status: 'active' }])
    const input = batchInput(
      {
        settings: { ...gated, fold: 'never' },
        ledger: new TestLedger(project),
        batch: batchOf([pull(5)], { base: 'f'.repeat(40) })
      },
      { readJob: service.readJob }
    )
    expect(await approval.check(input)).toMatchObject({
      written: { base: 'f'.repeat(40), approval: { wouldDo: { decision: 'new-job' } } }
    })
    expect(service.reads).toEqual([])
  })
})
