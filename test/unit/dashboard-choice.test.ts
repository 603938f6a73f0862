import { describe, expect, it } from 'vitest'
import {
  NewerLedgerError,
  WRITE_SLACK_MS,
  chooseDashboard
} from '../../src/agent/ledger/dashboard-choice.js'
import type { DashboardIssue } from '../../src/github/dashboard-issues.js'
import {
  LEDGER_FORMAT,
  type Ledger,
  dashboardPlace,
  emptyLedger,
  emptyProject,
  ledgerRecord
} from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import { ExplainedError } from '../../src/runner/errors.js'
import { signedStateBody } from '../support/ledger-states.js'

const signer = new RecordSigner('mint_test_key_0123456789')
const NOW = Date.UTC(2026, 10, 24, 12)
const ctx = {
  signer,
  repository: 'acme/app',
  viewer: 'github-actions[bot]',
  label: 'docs-agent-dashboard',
  title: 'Docs agent dashboard'
}

/** A state this action wrote in issue `number` at `writtenAt`, as its body holds it. */
function stateBody(number: number, writtenAt: number, version = 1): string {
  const ledger: Ledger = { ...emptyLedger(), issue: number, version, writtenAt }
  return `people's part\n${ledgerRecord(ledger, signer, dashboardPlace('acme/app', number), writtenAt)}`
}

/** An issue as GraphQL shows it: the action's, labelled, last edited by the action when written. */
function issue(number: number, over: Partial<DashboardIssue> = {}): DashboardIssue {
  return {
    number,
    title: 'Docs agent dashboard',
    body: stateBody(number, NOW),
    state: 'open',
    url: `https://github.com/acme/app/issues/${number}`,
    labels: ['docs-agent-dashboard'],
    locked: false,
    author: 'github-actions',
    createdAt: NOW - 1000,
    edits: [{ by: 'github-actions', at: NOW + 500 }],
    lastEdit: { by: 'github-actions', at: NOW + 500 },
    ...over
  }
}

describe('which issue is the dashboard', () => {
  it('reads a state bound to its issue whoever opened it (an earlier token), with a notice; leaves a labelled issue of someone else without one alone', () => {
    const earlier = issue(7, {
      author: 'acme-team-app',
      edits: [{ by: 'acme-team-app', at: NOW + 500, bot: true }],
      lastEdit: { by: 'acme-team-app', at: NOW + 500, bot: true }
    })
    const switched = chooseDashboard([earlier], ctx)
    expect(switched.issue?.number).toBe(7)
    expect(switched.notices).toEqual([
      `The dashboard https://github.com/acme/app/issues/7 was written by @acme-team-app, and 'github-token' is now @github-actions[bot]: its state verifies with the API key, so it stays the ledger, and this run writes it as @github-actions[bot]. Edits by either identity count as the action's own.`
    ])
    const theirs = issue(8, { author: 'tracy', body: 'Please document the new flag.' })
    const legacy = issue(9, {
      author: 'tracy',
      body: `x\n${ledgerRecord(emptyLedger(), signer, dashboardPlace('acme/app'), NOW)}`
    })
    const choice = chooseDashboard([legacy, theirs], ctx)
    expect(choice.issue).toBeUndefined()
    expect(choice.notices).toEqual([
      `#9 has the label 'docs-agent-dashboard' but was opened by @tracy, not by this action's identity @github-actions[bot], so it is not the dashboard and nothing in it is used: take the label off.`
    ])
  })

  it('stops at a state a newer version wrote in an issue of the action, never taking it as unreadable; notes one in another’s', () => {
    const newer = (number: number): string =>
      signedStateBody(
        { v: LEDGER_FORMAT + 1, issue: number, writtenAt: NOW },
        { repository: 'acme/app', issue: number, key: 'mint_test_key_0123456789' }
      )
    const stop = (): unknown => chooseDashboard([issue(6), issue(7, { body: newer(7) })], ctx)
    expect(stop).toThrow(NewerLedgerError)
    expect(stop).toThrow(
      `The dashboard https://github.com/acme/app/issues/7 was written by a newer version of the action (its state is in format ${LEDGER_FORMAT + 1}; this version reads formats up to ${LEDGER_FORMAT}), so this version leaves it as it is: nothing was started.`
    )
    const theirs = chooseDashboard([issue(6), issue(8, { body: newer(8), author: 'tracy' })], ctx)
    expect(theirs.issue?.number).toBe(6)
    expect(theirs.notices[0]).toContain('#8 has the label')
  })

  it('takes a state from before states named their issue only in an issue the action opened', () => {
    const legacy = `x\n${ledgerRecord(emptyLedger(), signer, dashboardPlace('acme/app'), NOW)}`
    expect(chooseDashboard([issue(8, { body: legacy })], ctx).issue?.number).toBe(8)
    const copied = chooseDashboard([issue(9, { body: legacy, author: 'tracy' })], ctx)
    expect(copied.issue).toBeUndefined()
  })

  it('refuses when only a copy holds the newest state: the issue it was written in is gone or older', () => {
    const copy = issue(12, { author: 'tracy', body: stateBody(11, NOW + 60_000) })
    const older = issue(10, { body: stateBody(10, NOW) })
    expect(() => chooseDashboard([copy, older], ctx)).toThrow(ExplainedError)
    expect(() => chooseDashboard([copy, older], ctx)).toThrow(
      /#12 holds a copy of the dashboard state written in #11 .*newer than any state found where it was written \(#10 holds one/
    )
  })

  it("trusts a person's tick after the action's write, not a body whose state is older than the action's last edit", () => {
    const ticked = issue(5, {
      edits: [
        { by: 'alice', at: NOW + 60_000 },
        { by: 'github-actions', at: NOW + 500 }
      ],
      lastEdit: { by: 'alice', at: NOW + 60_000 }
    })
    expect(chooseDashboard([ticked], ctx).issue?.number).toBe(5)
    const restored = issue(5, {
      edits: [
        { by: 'alice', at: NOW + 120_000 },
        { by: 'github-actions', at: NOW + WRITE_SLACK_MS + 1000 }
      ],
      lastEdit: { by: 'alice', at: NOW + 120_000 }
    })
    expect(() => chooseDashboard([restored], ctx)).toThrow(/@alice changed its body afterwards/)
    // The action's own edit not among those GitHub listed: not shown current, so refused.
    const unknown = issue(5, {
      edits: [{ by: 'alice', at: NOW + 60_000 }],
      lastEdit: { by: 'alice', at: NOW + 60_000 }
    })
    expect(() => chooseDashboard([unknown], ctx)).toThrow(ExplainedError)
  })

  it('refuses a state from before states were stamped when a person edited it after the action, unless a box in it could be ticked', () => {
    const legacyBody = (ledger: Ledger) =>
      `x\n${ledgerRecord(ledger, signer, dashboardPlace('acme/app'), NOW)}`
    const afterAction = {
      edits: [
        { by: 'maintainer', at: NOW + 3_600_000 },
        { by: 'github-actions', at: NOW + 1_800_000 }
      ],
      lastEdit: { by: 'maintainer', at: NOW + 3_600_000 }
    }
    const documented = { ...emptyProject(), documented: { sha: 'a'.repeat(40), at: NOW } }
    const plain = { ...emptyLedger(), projects: { p: documented } }
    // No box to tick: a person's later edit can only have restored or rewritten the body.
    expect(() =>
      chooseDashboard([issue(8, { body: legacyBody(plain), ...afterAction })], ctx)
    ).toThrow(
      /holds a state older than the one this action last wrote there: @maintainer changed its body afterwards/
    )
    // A batch waiting for approval: the person's edit may be the tick, within a job's six hours.
    const waiting = {
      ...emptyLedger(),
      projects: {
        p: { ...documented, waiting: { changes: [], why: 'approval', since: NOW, batch: 'b1' } }
      }
    }
    expect(
      chooseDashboard([issue(8, { body: legacyBody(waiting), ...afterAction })], ctx).issue?.number
    ).toBe(8)
    const dayLater = {
      edits: [
        { by: 'maintainer', at: NOW + 30 * 3_600_000 },
        { by: 'github-actions', at: NOW + 24 * 3_600_000 }
      ],
      lastEdit: { by: 'maintainer', at: NOW + 30 * 3_600_000 }
    }
    expect(() =>
      chooseDashboard([issue(8, { body: legacyBody(waiting), ...dayLater })], ctx)
    ).toThrow(/@maintainer changed its body afterwards/)
  })

  it('never takes another issue of the action with the label and no state as the dashboard: it is named, not written', () => {
    const other = issue(4, { title: 'Weekly link check', body: 'All links fine.' })
    const choice = chooseDashboard([other], ctx)
    expect(choice.issue).toBeUndefined()
    expect(choice.notices).toEqual([
      "#4 has the label 'docs-agent-dashboard' but is not the dashboard (its title is not 'Docs agent dashboard' and it holds no dashboard state), so it is left alone: take the label off."
    ])
    // The dashboard itself without a state (its first write failed half-way) is still adopted.
    expect(chooseDashboard([issue(5, { body: 'page only' })], ctx).issue?.number).toBe(5)
  })

  it('says when the dashboard is locked, and finds one without its label to put it back', () => {
    const choice = chooseDashboard([issue(3, { locked: true, labels: [], state: 'closed' })], ctx)
    expect(choice.relabel).toBe(true)
    expect(choice.notices.join('\n')).toContain('had lost its label')
    expect(choice.notices.join('\n')).toContain('and was closed')
    expect(choice.notices.join('\n')).toContain('is locked')
  })
})
