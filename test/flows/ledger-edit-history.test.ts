import { describe, expect, it } from 'vitest'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import type { CodeChangeServers } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { VirtualClock } from '../support/virtual-clock.js'

/**
 * The dashboard's edit history as GitHub keeps it: its list of body edits has no documented order
 * and is read in pages, so an earlier body restored and then edited many times over is told apart
 * from the newest state however many edits follow, within a stated bound.
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
const runMerged = (inputs: Record<string, string>, over: Partial<FakePull> = {}) =>
  run({ event: servers.mergedEvent(servers.mergeNext(over)), inputs })
const sentTimes = (title: string): number =>
  [...sim.requests('create'), ...sim.requests('message')]
    .map(e => (e.requestBody as { prompt: string }).prompt)
    .filter(p => p.includes(`: ${title}\n`)).length
const theDashboard = (): FakeIssue => {
  const own = [...gh.issues.values()].filter(i => i.user.type === 'Bot')
  expect(own).toHaveLength(1)
  return own[0] as FakeIssue
}
/** A person's edit of the page that keeps the state below it (a note added at the top). */
const note = (issue: FakeIssue, n: number, body = issue.body): void =>
  gh.editIssue(issue.number, `Note ${n}\n\n${body.replace(/^Note \d+\n\n/, '')}`, 'maintainer')
const BUDGET = { 'max-jobs': '2/day', fold: 'never' }

describe('a restore hidden by later edits', () => {
  it('an old body restored and then edited 20 times over is refused: nothing sent twice, no job over budget', async () => {
    await runMerged(BUDGET, { title: 'One' })
    const real = theDashboard()
    // People's edits after it (notes on the page), up to 20 edits in all: the oldest 20 GitHub
    // lists then end with a person's edit of a body holding One's state.
    while ((real.edits?.length ?? 0) < 20) note(real, real.edits?.length ?? 0)
    const old = real.body
    await clock.sleep(3_600_000)
    await runMerged(BUDGET, { title: 'Two' })
    expect(sim.requests('create')).toHaveLength(2)
    // One's body restored, then edited 20 times: the newest 20 edits are all a person's.
    gh.editIssue(real.number, old, 'maintainer')
    for (let n = 0; n < 20; n++) note(real, 100 + n)
    const refused = await runMerged(BUDGET, { title: 'Three' })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain(
      `::error::The dashboard https://github.com/acme/app/issues/${real.number} holds a state older than the one this action last wrote there: @maintainer changed its body afterwards`
    )
    expect(sim.requests('create')).toHaveLength(2)
    expect(sentTimes('Two')).toBe(1)
  })

  it('past the edits it reads (520, from the newest), a body edited by others is refused, never taken as current', async () => {
    await runMerged(BUDGET, { title: 'One' })
    const real = theDashboard()
    for (let n = 0; n < 521; n++) note(real, n)
    const refused = await runMerged(BUDGET, { title: 'Two' })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain(
      `::error::The dashboard https://github.com/acme/app/issues/${real.number} was edited by others so often since this action last wrote it that its last write is not among the newest 520 edits GitHub lists`
    )
    expect(sim.requests('create')).toHaveLength(1)
    // Five pages of a hundred read, no more.
    const pages = gh.requests.filter(
      r => r.path.endsWith('/graphql') && JSON.stringify(r.body).includes('issue(number:')
    )
    expect(pages).toHaveLength(5)
  })

  it('a tick after many edits keeps the state: the newest write is found in the next page', async () => {
    await runMerged({ fold: 'never' }, { title: 'One' })
    const real = theDashboard()
    for (let n = 0; n < 60; n++) note(real, n)
    const next = await runMerged({ fold: 'never' }, { title: 'Two' })
    expect(next.code).toBe(0)
    expect(next.outputs.result).toBe('pr-opened')
    expect(sentTimes('One')).toBe(1)
    expect(servers.ledgerOf(undefined, real)?.jobs).toHaveLength(2)
  })

  it.each([
    ['deleted', (body: string) => body.replace(/<!-- mintlify-agent-ledger[^]*$/, '')],
    ['garbled', (body: string) => body.replace(/("v":\s*\d+)/, '$1,"x":1')]
  ])(
    'a %s hidden state is never replaced silently: a warning and a line on the page say what was lost',
    async (_name, damage) => {
      const approval = { approval: 'dashboard' }
      await runMerged(approval, { title: 'One' })
      const real = theDashboard()
      gh.editIssue(real.number, damage(real.body), 'maintainer')
      // GitHub dates the edit to the second.
      const at = new Date(Math.floor((real.edits?.at(-1)?.at ?? 0) / 1000) * 1000).toISOString()
      const next = await runMerged(approval, { title: 'Two' })
      expect(next.code).toBe(0)
      const warning = /::warning::(The dashboard [^\n]*)/.exec(next.log)?.[1] ?? ''
      expect(warning).toContain(`https://github.com/acme/app/issues/${real.number}`)
      expect(warning).toContain(
        _name === 'deleted'
          ? `holds no hidden state: it was deleted (@maintainer's edit of ${at})`
          : `holds no state this action wrote with this API key (edited by hand, last by @maintainer at ${at}`
      )
      expect(warning).toContain(
        "what the state recorded is lost: the last documented commit (this run documents its own change only), the budget's history ('max-jobs' and 'max-credits' count from here), the changes that waited and the uncertain requests. Their last version is in the issue's edit history: the last version @github-actions[bot] wrote before"
      )
      expect(real.body).toContain('**This ledger started afresh**: the hidden state before it was')
      expect(real.body).toContain('@maintainer')
      expect(servers.ledgerOf(undefined, real)?.waiting?.changes.map(c => c.title)).toEqual(['Two'])
      // The line stays on the page for later runs.
      await runMerged(approval, { title: 'Three' })
      expect(real.body).toContain('**This ledger started afresh**')
    }
  )

  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
