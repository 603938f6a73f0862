import { describe, expect, it } from 'vitest'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import type { CodeChangeServers } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import type { RunResult } from '../support/run-action.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * The rollback check on GitHub's clock: GitHub stamps each edit of the dashboard when it makes it,
 * on its own clock, which is not the runner's, and a write resent after a rate limit's wait is made
 * later than the run rendered it. Neither may make a person's later edit (a tick) look like a
 * restore of an earlier version.
 */
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})

/** The next run, in-process on the suite's clock. */
const run = suite.run
const BUDGET = { 'max-jobs': '5/day', fold: 'never' }
const runMerged = (over: Partial<FakePull>): Promise<RunResult> =>
  run({ event: servers.mergedEvent(servers.mergeNext(over)), inputs: BUDGET })
const theDashboard = (): FakeIssue => {
  const own = [...gh.issues.values()].filter(i => i.user.type === 'Bot')
  expect(own).toHaveLength(1)
  return own[0] as FakeIssue
}
/** A person's edit that leaves the state alone: a line of their own at the top of the page. */
const personEdits = (): void => {
  const dashboard = theDashboard()
  gh.editIssue(dashboard.number, `Read me first.\n${dashboard.body}`, 'maintainer')
}
const created = (): number => sim.requests('create').length

describe("the rollback check reads GitHub's clock", () => {
  it.each([
    ['a minute ahead of', 60_000],
    ['two minutes behind', -120_000]
  ])(
    "GitHub's clock %s the runner's: a person's edit after the action's write is not a restore",
    async (_name, skew) => {
      gh.clockSkewMs = skew
      await runMerged({ title: 'One' })
      await clock.sleep(3_600_000)
      await runMerged({ title: 'Two' })
      personEdits()
      const third = await runMerged({ title: 'Three' })
      expect(third.log).not.toContain('::error::')
      expect(third.outputs.result).toBe('pr-opened')
      expect(created()).toBe(3)
      expect(servers.ledgerOf(undefined, theDashboard())?.jobs).toHaveLength(3)
    }
  )

  it('a write resent after a secondary rate limit: a later edit by a person is not a restore', async () => {
    await runMerged({ title: 'One' })
    const dashboard = theDashboard()
    // GitHub's secondary limit on each of the run's writes of the state, the last one included:
    // each is sent again a minute on.
    let limited = 0
    let resend = false
    const stop = gh.onRequest(request => {
      const body = request.body as { body?: unknown } | undefined
      if (request.method !== 'PATCH' || !request.path.endsWith(`/issues/${dashboard.number}`))
        return
      if (typeof body?.body !== 'string') return
      // The attempt after the wait goes through.
      resend = !resend
      if (!resend) return
      limited++
      gh.failures.set('update-issue', { status: 403, times: 1, retryAfter: 60 })
    })
    await clock.sleep(3_600_000)
    const second = await runMerged({ title: 'Two' })
    stop()
    expect(limited).toBeGreaterThan(1)
    expect(second.outputs.result).toBe('pr-opened')
    personEdits()
    const third = await runMerged({ title: 'Three' })
    expect(third.log).not.toContain('::error::')
    expect(third.outputs.result).toBe('pr-opened')
    expect(created()).toBe(3)
  })

  it('a body restored from the edit history is still refused on a skewed clock', async () => {
    gh.clockSkewMs = 90_000
    await runMerged({ title: 'One' })
    const old = theDashboard().body
    await clock.sleep(3_600_000)
    await runMerged({ title: 'Two' })
    gh.editIssue(theDashboard().number, old, 'maintainer')
    const refused = await runMerged({ title: 'Three' })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain('holds a state older than the one this action last wrote there')
    expect(created()).toBe(2)
  })

  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
