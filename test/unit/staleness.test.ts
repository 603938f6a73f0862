import { describe, expect, it } from 'vitest'
import { judgeStaleness, peopleOf } from '../../src/agent/ledger/staleness.js'
import type { ActivityEvent, PullActivity } from '../../src/github/pull-activity.js'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 10, 27, 12)
const OPENED = NOW - 30 * DAY
const ctx = {
  createdAt: OPENED,
  now: NOW,
  afterMs: 14 * DAY,
  keepLabel: 'docs-agent-keep',
  agent: { token: 'docs-writer' }
}
const activity = (
  events: Partial<ActivityEvent>[],
  over: Partial<PullActivity> = {}
): PullActivity => ({
  author: 'mintlify[bot]',
  draft: false,
  labels: [],
  openerEmail: 'agent@mintlify.com',
  events: events.map(e => ({ kind: 'comment', at: OPENED + DAY, bot: false, ...e })),
  unread: 0,
  ...over
})

describe('judgeStaleness: stale means nobody but the agent touched it', () => {
  it('is stale from its creation when only the agent, its identities and bots touched it', () => {
    const only = activity([
      { kind: 'commit', email: 'agent@mintlify.com' },
      { kind: 'commit', login: 'Mintlify[bot]' },
      { kind: 'comment', login: 'docs-writer' },
      { kind: 'review', login: 'renovate', bot: true, state: 'APPROVED' },
      // A commit with neither account nor email tells nothing of a person.
      { kind: 'commit' }
    ])
    expect(peopleOf(only, ctx.agent)).toEqual([])
    expect(judgeStaleness(only, ctx)).toEqual({ stale: true, since: OPENED })
  })

  it('never closes on a guess: more events than read keep it', () => {
    expect(judgeStaleness(activity([], { unread: 3 }), ctx)).toEqual({
      keep: 'it has more events than the 100 newest read for expire-after'
    })
  })

  it('a dismissed review (an approval or a request for changes a later push made stale) is a person’s work: kept for good', () => {
    const at = NOW - 20 * DAY
    expect(
      judgeStaleness(activity([{ kind: 'review', login: 'gina', state: 'DISMISSED', at }]), ctx)
    ).toEqual({
      keep: '@gina reviewed it (approved or requested changes; GitHub dismissed the review since) (2026-11-07)'
    })
    // A review that only commented is a touch: stale from it once older than expire-after.
    expect(
      judgeStaleness(activity([{ kind: 'review', login: 'gina', state: 'COMMENTED', at }]), ctx)
    ).toEqual({ stale: true, since: at, touched: 'a review by @gina' })
    // Removing a label is a touch, dated when it was removed.
    expect(
      judgeStaleness(
        activity([{ kind: 'unlabel', login: 'gina', label: 'docs-agent-keep', at: NOW - DAY }]),
        ctx
      )
    ).toEqual({ recent: 'a label removed by @gina on 2026-11-26' })
    expect(
      judgeStaleness(activity([{ kind: 'label', login: 'gina', label: 'x', at: NOW - DAY }]), ctx)
    ).toEqual({ recent: 'a label by @gina on 2026-11-26' })
  })

  it('keeps one with the keep label in any case, and names an odd login safely', () => {
    expect(judgeStaleness(activity([], { labels: ['DOCS-AGENT-KEEP'] }), ctx)).toEqual({
      keep: "it has the label 'docs-agent-keep'"
    })
    expect(judgeStaleness(activity([{ kind: 'commit', login: 'x](http://evil)' }]), ctx)).toEqual({
      keep: 'someone pushed a commit to it (2026-10-29)'
    })
  })

  it('a person who committed or force-pushed what the agent authored pushed to it', () => {
    const agentAuthored = { kind: 'commit' as const, email: 'agent@mintlify.com' }
    expect(
      judgeStaleness(
        activity([agentAuthored, { kind: 'push', login: 'bob', email: 'bob@x.io' }]),
        ctx
      )
    ).toEqual({ keep: '@bob pushed to it (2026-10-29)' })
    expect(judgeStaleness(activity([agentAuthored, { kind: 'push', login: 'bob' }]), ctx)).toEqual({
      keep: '@bob pushed to it (2026-10-29)'
    })
  })

  it('the agent’s email is the one recorded, not the current first commit’s (a squash makes it a person’s)', () => {
    // Squashed by a person with no GitHub account: the first commit is theirs now.
    const squashed = activity([{ kind: 'commit', email: 'bob@laptop.local' }], {
      openerEmail: 'bob@laptop.local'
    })
    expect(judgeStaleness(squashed, ctx)).toEqual({ stale: true, since: OPENED })
    expect(
      judgeStaleness(squashed, { ...ctx, agent: { ...ctx.agent, email: 'agent@mintlify.com' } })
    ).toEqual({
      keep: 'a git author GitHub matches to no account pushed a commit to it (2026-10-29)'
    })
  })

  it('the docs-token identity’s comments are nobody’s; its approvals and commits are its holder’s', () => {
    expect(peopleOf(activity([{ kind: 'comment', login: 'Docs-Writer' }]), ctx.agent)).toEqual([])
    expect(
      judgeStaleness(activity([{ kind: 'review', login: 'docs-writer', state: 'APPROVED' }]), ctx)
    ).toEqual({ keep: '@docs-writer approved it (2026-10-29)' })
    expect(judgeStaleness(activity([{ kind: 'commit', login: 'docs-writer' }]), ctx)).toEqual({
      keep: '@docs-writer pushed a commit to it (2026-10-29)'
    })
  })
})
