import { describe, expect, it } from 'vitest'
import { isApprovalTick, readTick } from '../../src/changes/approval.js'
import {
  approvalBox,
  approvalLines,
  keepTicks,
  newBatchId,
  tickedBatches
} from '../../src/agent/ledger/approval-box.js'
import { renderDashboard } from '../../src/agent/ledger/dashboard-body.js'
import {
  type Waiting,
  emptyLedger,
  emptyProject,
  ledgerRecord,
  readLedger
} from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import type { RunEvent } from '../../src/github/event.js'

const NOW = Date.UTC(2026, 10, 24, 12)
const waiting = (over: Partial<Waiting> = {}): Waiting => ({
  changes: [{ sha: 'a'.repeat(40), pr: 101, title: 'Change 101' }],
  why: 'Awaiting approval',
  since: NOW,
  batch: 'mi3abc',
  ...over
})
const ticked = (id: string): string => approvalBox(id).replace('- [ ]', '- [x]')

describe('the approval box', () => {
  it('is written unticked, and read back ticked only as GitHub ticks it', () => {
    expect(approvalBox('mi3abc')).toBe('- [ ] Start the agent for these changes (batch `mi3abc`)')
    expect(tickedBatches(approvalBox('mi3abc'))).toEqual([])
    expect(tickedBatches(`text\n${ticked('mi3abc')}\nmore`)).toEqual(['mi3abc'])
    expect(tickedBatches(ticked('mi3abc').replace('[x]', '[X]'))).toEqual(['mi3abc'])
    // Not at the start of a line, another phrase, an id out of shape: no tick.
    expect(tickedBatches(`quote: ${ticked('mi3abc')}`)).toEqual([])
    expect(tickedBatches('- [x] Start the agent (batch `mi3abc`)')).toEqual([])
    expect(tickedBatches(ticked('MI3-ABC'))).toEqual([])
    expect(tickedBatches(`${ticked('a1')}\n${ticked('a1')}\n${ticked('b2')}`)).toEqual(['a1', 'b2'])
  })

  it('gives each batch an id from the moment it began to wait', () => {
    expect(newBatchId(NOW)).toBe(NOW.toString(36))
    expect(newBatchId(NOW)).toMatch(/^[a-z0-9]{1,16}$/)
    expect(newBatchId(NOW + 1)).not.toBe(newBatchId(NOW))
  })

  it('says what a run would do, or who approved', () => {
    const awaiting = approvalLines(
      waiting({ wouldDo: { decision: 'follow-up', job: 'job_1', promptBytes: 4200 } })
    ).join('\n')
    expect(awaiting).toContain(approvalBox('mi3abc'))
    expect(awaiting).toContain('a follow-up to job `job_1`')
    expect(awaiting).toContain('a prompt of 4.2 KB')
    const approved = approvalLines(waiting({ approvedBy: 'alice', approvedAt: NOW })).join('\n')
    expect(approved).not.toContain('- [ ]')
    // Named, not mentioned: the dashboard is rewritten on every run.
    expect(approved).toContain('Approved by @\u200Balice at 2026-11-24 12:00 UTC')
    expect(approvalLines(waiting({ batch: undefined }))).toEqual([])
  })

  it('appears in the dashboard’s waiting section', () => {
    const ledger = emptyLedger()
    ledger.projects.proj = { ...emptyProject(), waiting: waiting() }
    const body = renderDashboard(ledger, {
      repository: 'acme/app',
      serverUrl: 'https://github.com',
      now: NOW
    })
    expect(body).toMatch(/#### Waiting: 1 change\n\nAwaiting approval\n\n- \[ \] Start the agent/)
  })
})

describe('a tick made while a run writes', () => {
  it('stays ticked in what the run writes: only the box of that batch, as the action renders it', () => {
    const body = [
      approvalBox('abc'),
      approvalBox('def'),
      '- [ ] something else',
      '- [ ] ' + 'x'
    ].join('\n')
    expect(keepTicks(body, ['abc']).split('\n')).toEqual([
      '- [x] Start the agent for these changes (batch `abc`)',
      approvalBox('def'),
      '- [ ] something else',
      '- [ ] x'
    ])
    expect(keepTicks(body, [])).toBe(body)
    expect(keepTicks(body, ['zzz'])).toBe(body)
  })
})

describe('a tick', () => {
  it('counts only on the batch the ledger holds, once', () => {
    expect(readTick(approvalBox('mi3abc'), waiting())).toEqual({ kind: 'none' })
    expect(readTick(ticked('mi3abc'), waiting())).toEqual({ kind: 'tick', batch: 'mi3abc' })
    expect(readTick(ticked('old1'), waiting())).toEqual({ kind: 'gone', ticked: ['old1'] })
    expect(readTick(ticked('mi3abc'), null)).toEqual({ kind: 'gone', ticked: ['mi3abc'] })
    expect(readTick(ticked('mi3abc'), waiting({ approvedBy: 'alice' }))).toEqual({
      kind: 'again',
      batch: 'mi3abc',
      by: 'alice'
    })
  })

  it('is looked for only on an edit of a dashboard-labelled issue, with approval: dashboard', () => {
    const event = {
      name: 'issues',
      action: 'edited',
      issue: {
        number: 7,
        title: 'Docs agent dashboard',
        body: '',
        url: '',
        isPullRequest: false,
        labels: ['docs-agent-dashboard']
      }
    } satisfies Pick<RunEvent, 'name' | 'action' | 'issue'>
    const on = { approval: 'dashboard' as const }
    expect(isApprovalTick(event, on)).toBe(true)
    expect(isApprovalTick(event, { approval: 'none' })).toBe(false)
    expect(isApprovalTick(event, { ...on, jobId: 'job_1' })).toBe(false)
    expect(isApprovalTick({ ...event, action: 'labeled' }, on)).toBe(false)
    expect(isApprovalTick({ ...event, issue: { ...event.issue, labels: ['bug'] } }, on)).toBe(false)
    expect(isApprovalTick({ ...event, issue: { ...event.issue, isPullRequest: true } }, on)).toBe(
      false
    )
  })
})

describe('the waiting batch in the ledger', () => {
  const signer = new RecordSigner('mint_test_key_0123456789')
  const PLACE = 'acme/app dashboard'
  const roundTrip = (w: unknown) => {
    const ledger = emptyLedger()
    ledger.projects.proj = { ...emptyProject(), waiting: w as Waiting }
    const read = readLedger(ledgerRecord(ledger, signer, PLACE, NOW), signer, PLACE)
    if (!read.ok) throw new Error('expected a ledger')
    return read.ledger.projects.proj?.waiting
  }

  it('keeps its id, approval and planned decision', () => {
    const w = waiting({
      approvedBy: 'alice',
      approvedAt: NOW,
      wouldDo: { decision: 'follow-up', job: 'job_1', promptBytes: 900 }
    })
    expect(roundTrip(w)).toEqual(w)
  })

  it('drops approval fields out of shape', () => {
    const read = roundTrip({
      ...waiting(),
      batch: 'X`) - [x]',
      approvedBy: '@alice <b>',
      approvedAt: NOW,
      wouldDo: { decision: 'spend-all', promptBytes: 1 }
    })
    expect(read).toEqual({ changes: waiting().changes, why: 'Awaiting approval', since: NOW })
  })
})
