import { describe, expect, it } from 'vitest'
import { coveredAlready } from '../../../src/changes/gates/covered-already.js'
import { documentedAlready } from '../../../src/changes/gates/documented-already.js'
import { firstRun } from '../../../src/changes/gates/first-run.js'
import { emptyProject } from '../../../src/records/ledger.js'
import { HEAD, NOW, SERVER, TestLedger, headInput } from '../../support/gate-inputs.js'

const documented = (sha: string) => ({ ...emptyProject(), documented: { sha, at: NOW } })

describe('the documented-already gate', () => {
  it('skips when the head is the last documented commit, and says up to where', async () => {
    const verdict = await documentedAlready.check(
      headInput({ ledger: new TestLedger(documented(HEAD)) })
    )
    expect(verdict).toEqual({
      kind: 'skip',
      why: `Everything up to ${HEAD.slice(0, 12)} on main is documented already.`
    })
  })

  it('passes a head past the last documented commit, and an empty ledger', async () => {
    const past = headInput({ ledger: new TestLedger(documented('a'.repeat(40))) })
    expect(await documentedAlready.check(past)).toEqual({ kind: 'pass' })
    expect(await documentedAlready.check(headInput())).toEqual({ kind: 'pass' })
  })

  it('passes a tick that resends uncertain changes, though the head is documented', async () => {
    const ledger = new TestLedger(documented(HEAD))
    ledger.resending = ['u1']
    expect(await documentedAlready.check(headInput({ ledger }))).toEqual({ kind: 'pass' })
  })
})

describe('the covered-by-an-earlier-run gate', () => {
  const entry = (run: string, url: string) => ({
    at: NOW,
    url,
    run,
    step: 'docs',
    head: HEAD,
    result: 'started',
    changes: 1,
    note: ''
  })

  it('skips a head another run covered, naming that run by its page or its id', async () => {
    const project = {
      ...emptyProject(),
      runs: [entry('run-1', `${SERVER}/acme/app/actions/runs/1`)]
    }
    expect(await coveredAlready.check(headInput({ ledger: new TestLedger(project) }))).toEqual({
      kind: 'skip',
      why: `The run ${SERVER}/acme/app/actions/runs/1 covered ${HEAD.slice(0, 12)} already.`
    })
    const unnamed = { ...emptyProject(), runs: [entry('run-1', '')] }
    const verdict = await coveredAlready.check(headInput({ ledger: new TestLedger(unnamed) }))
    expect(verdict).toMatchObject({
      kind: 'skip',
      why: expect.stringMatching(/^The run run-1 covered/)
    })
  })

  it('passes a tick that resends uncertain changes, though another run covered the head', async () => {
    const ledger = new TestLedger({ ...emptyProject(), runs: [entry('run-1', '')] })
    ledger.resending = ['u1']
    expect(await coveredAlready.check(headInput({ ledger }))).toEqual({ kind: 'pass' })
  })

  it('passes a head no other run covered', async () => {
    const own = { ...emptyProject(), runs: [entry('run-2', '')] }
    expect(await coveredAlready.check(headInput({ ledger: new TestLedger(own) }))).toEqual({
      kind: 'pass'
    })
  })
})

describe('the first-run gate', () => {
  it('on an empty ledger, a catch-up records the head as documented and starts nothing', async () => {
    const verdict = await firstRun.check(headInput({ plan: { kind: 'since-last' } }))
    expect(verdict).toMatchObject({
      kind: 'skip',
      why: `The dashboard had no last documented commit: ${HEAD.slice(0, 12)} on main is recorded as documented, and nothing is started. The next run documents what comes after it.`,
      record: {
        note: 'first run: the branch head is recorded as documented',
        batch: { head: HEAD, branch: 'main', pulls: [], commits: [] }
      }
    })
  })

  it('passes the event’s own change on an empty ledger, and any run once a commit is documented', async () => {
    expect(await firstRun.check(headInput())).toEqual({ kind: 'pass' })
    const later = headInput({
      plan: { kind: 'since-last' },
      ledger: new TestLedger(documented('a'.repeat(40)))
    })
    expect(await firstRun.check(later)).toEqual({ kind: 'pass' })
  })
})
