import { describe, expect, it } from 'vitest'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import { type CodeChangeServers, DOCS_TOKEN } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * A team switching `github-token` between an App's token (`<slug>[bot]`) and GITHUB_TOKEN
 * (`github-actions[bot]`): the dashboard the other identity opened and wrote stays the ledger, with
 * a notice naming both, and the rollback check counts the edits of every identity that wrote it.
 */
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})

/** The team's App, whose token `github-token` was first. */
const APP_TOKEN = 'ghs_team_app_token_value'
const APP = { login: 'acme-team-app[bot]', type: 'Bot' } as const
const withApp = { 'github-token': APP_TOKEN }

/** The next run, in-process on the suite's clock. */
const run = suite.run
const runMerged = (inputs: Record<string, string>, over: Partial<FakePull> = {}) =>
  run({ event: servers.mergedEvent(servers.mergeNext(over)), inputs })
const sentTimes = (title: string): number =>
  [...sim.requests('create'), ...sim.requests('message')]
    .map(e => (e.requestBody as { prompt: string }).prompt)
    .filter(p => p.includes(`: ${title}\n`)).length
const dashboards = (): FakeIssue[] => [...gh.issues.values()].filter(i => i.user.type === 'Bot')
const BUDGET = { 'max-jobs': '2/day', fold: 'never' }

describe("switching 'github-token'", () => {
  it('from an App token to GITHUB_TOKEN keeps the ledger, with a notice naming both identities', async () => {
    gh.tokenUsers.set(APP_TOKEN, APP)
    await runMerged({ ...BUDGET, ...withApp }, { title: 'One' })
    const [real] = dashboards()
    expect(real?.user.login).toBe(APP.login)
    const url = `https://github.com/acme/app/issues/${real?.number}`
    await clock.sleep(3_600_000)
    const switched = await runMerged(BUDGET, { title: 'Two' })
    expect(switched.outputs.result).toBe('pr-opened')
    expect(switched.log).toContain(
      `::notice title=Mintlify agent::The dashboard ${url} was written by @acme-team-app[bot], and 'github-token' is now @github-actions[bot]: its state verifies with the API key, so it stays the ledger`
    )
    expect(switched.log).not.toContain('is not the dashboard')
    expect(dashboards()).toHaveLength(1)
    expect(servers.ledgerOf(undefined, real)?.jobs).toHaveLength(2)
    // The budget counts both tokens' jobs; nothing is sent twice.
    const third = await runMerged(BUDGET, { title: 'Three' })
    expect(third.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(third.log).not.toContain('was written by @')
    expect(sentTimes('One')).toBe(1)
    expect(sim.requests('create')).toHaveLength(2)
    // And back to the App: the same ledger still.
    const back = await runMerged({ ...BUDGET, ...withApp }, { title: 'Four' })
    expect(back.log).toContain(
      `The dashboard ${url} was written by @github-actions[bot], and 'github-token' is now @acme-team-app[bot]`
    )
    expect(dashboards()).toHaveLength(1)
    expect(servers.ledgerOf(undefined, real)?.waiting?.changes.map(c => c.title)).toEqual([
      'Three',
      'Four'
    ])
  })

  it('a restore after the switch is refused: the earlier identity’s write does not vouch for an older state', async () => {
    gh.tokenUsers.set(APP_TOKEN, APP)
    await runMerged({ ...BUDGET, ...withApp }, { title: 'One' })
    const [real] = dashboards()
    if (!real) throw new Error('no dashboard')
    const old = real.body
    await clock.sleep(3_600_000)
    await runMerged(BUDGET, { title: 'Two' })
    // The App-written body restored after GITHUB_TOKEN wrote a newer one.
    gh.editIssue(real.number, old, 'maintainer')
    const refused = await runMerged(BUDGET, { title: 'Three' })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain(
      `::error::The dashboard https://github.com/acme/app/issues/${real.number} holds a state older than the one this action last wrote there`
    )
    expect(sentTimes('Two')).toBe(1)
    expect(sim.requests('create')).toHaveLength(2)
  })

  it('a restore to before a switch is refused whichever token reads next: every App’s write counts as the action’s', async () => {
    gh.tokenUsers.set(APP_TOKEN, APP)
    await runMerged({ ...BUDGET, ...withApp }, { title: 'One' })
    const [real] = dashboards()
    if (!real) throw new Error('no dashboard')
    const old = real.body
    await clock.sleep(3_600_000)
    await runMerged(BUDGET, { title: 'Two' })
    gh.editIssue(real.number, old, 'maintainer')
    // A third identity, neither the issue's author nor the one that wrote last.
    const refused = await runMerged({ ...BUDGET, 'github-token': DOCS_TOKEN }, { title: 'Three' })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain('holds a state older than the one this action last wrote there')
    expect(sim.requests('create')).toHaveLength(2)
  })

  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
