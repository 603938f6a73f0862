import { describe, expect, it } from 'vitest'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import type { CodeChangeServers } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { RecordSigner } from '../../src/records/record.js'
import { dashboardPlace, ledgerRecord, readDashboardState } from '../../src/records/ledger.js'

/**
 * The dashboard's state against the people who can label, comment on and edit issues: a copy, a
 * stale dashboard brought back to the top, a body restored from its edit history, a label taken
 * off. GitHub lists labelled issues as the fake does: most recently updated first, closed ones
 * included, a comment making an issue the most recently updated.
 */
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})

const LABEL = 'docs-agent-dashboard'
/** The next run, in-process on the suite's clock. */
const run = suite.run
const runMerged = (inputs: Record<string, string>, over: Partial<FakePull> = {}) =>
  run({ event: servers.mergedEvent(servers.mergeNext(over)), inputs })
const prompts = (): string[] =>
  [...sim.requests('create'), ...sim.requests('message')].map(
    e => (e.requestBody as { prompt: string }).prompt
  )
const sentTimes = (title: string): number =>
  prompts().filter(p => p.includes(`: ${title}\n`)).length
const theDashboard = (): FakeIssue => {
  const own = [...gh.issues.values()].filter(i => i.user.type === 'Bot')
  expect(own).toHaveLength(1)
  return own[0] as FakeIssue
}
/**
 * Two dashboards of the action, both with their label: a second one opened (after 'Two') while
 * the first (after 'One') could not be found, then the first back.
 */
async function staleAndCurrent(): Promise<{ stale: FakeIssue; current: FakeIssue }> {
  await runMerged({ fold: 'never' }, { title: 'One' })
  const stale = theDashboard()
  gh.issues.delete(stale.number)
  await runMerged({ fold: 'never' }, { title: 'Two' })
  const current = theDashboard()
  gh.issues.set(stale.number, stale)
  return { stale, current }
}
const BUDGET = { 'max-jobs': '2/day', fold: 'never' }

describe('the ledger cannot be replaced by an older one', () => {
  it('a copy of an old body in a new labelled issue is refused: no job over budget, nothing sent twice', async () => {
    await runMerged(BUDGET, { title: 'One' })
    const real = theDashboard()
    const old = real.body
    await runMerged(BUDGET, { title: 'Two' })
    expect(sim.requests('create')).toHaveLength(2)
    // Someone with triage rights opens an issue with the older body and labels it.
    const copy = gh.openIssue({
      title: real.title,
      body: old,
      labels: [LABEL],
      user: { login: 'tracy', type: 'User' }
    })
    const third = await runMerged(BUDGET, { title: 'Three' })
    expect(sim.requests('create')).toHaveLength(2)
    expect(third.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(third.log).toContain(
      `#${copy.number} holds a copy of the dashboard state written in #${real.number}, an older one: it is not used; take the label off #${copy.number}.`
    )
    expect(sentTimes('Two')).toBe(1)
    expect(servers.ledgerOf(undefined, real)?.waiting?.changes.map(c => c.title)).toEqual(['Three'])
    // The copy is never written: its author could restore any version of it.
    expect(copy.body).toBe(old)
  })

  type Disturb = (dashboards: { stale: FakeIssue; current: FakeIssue }) => void
  it.each<[string, Disturb]>([
    [
      'a comment on a stale dashboard does not make it the ledger: the newest state is used',
      // An outsider comments on the stale one, which makes it the most recently updated.
      ({ stale }) =>
        void gh.addComment(stale.number, 'Is this still used?', { login: 'outsider', type: 'User' })
    ],
    [
      'a label moved off the current dashboard back onto a stale one: the newest state is still used',
      // Someone with triage rights takes the label off the current one; the stale one has it.
      ({ current }) => void (current.labels = [])
    ]
  ])('%s', async (_name, disturb) => {
    const { stale, current } = await staleAndCurrent()
    disturb({ stale, current })
    const third = await runMerged({ fold: 'never' }, { title: 'Three' })
    expect(third.outputs.result).toBe('pr-opened')
    expect(sentTimes('Two')).toBe(1)
    expect(sentTimes('Three')).toBe(1)
    expect(third.log).toContain(
      `#${stale.number} also holds a dashboard state, older than #${current.number}'s`
    )
    expect(current.labels).toEqual([LABEL])
    expect(servers.ledgerOf(undefined, current)?.jobs).toHaveLength(2)
    expect(servers.ledgerOf(undefined, stale)?.jobs).toHaveLength(1)
  })

  it('a body restored from the edit history is refused until its newest version is restored', async () => {
    await runMerged(BUDGET, { title: 'One' })
    const real = (): FakeIssue => theDashboard()
    const old = real().body
    // The next merge an hour later.
    await clock.sleep(3_600_000)
    await runMerged(BUDGET, { title: 'Two' })
    const newest = real().body
    gh.editIssue(real().number, old, 'maintainer')
    const refused = await runMerged(BUDGET, { title: 'Three' })
    expect(refused.code).toBe(1)
    expect(refused.log).toMatch(
      new RegExp(
        `::error::The dashboard https://github.com/acme/app/issues/${real().number} holds a state older than the one this action last wrote there: @maintainer changed its body afterwards .*Restore the newest version`
      )
    )
    expect(sim.requests('create')).toHaveLength(2)
    expect(sentTimes('Two')).toBe(1)
    // The newest version restored (as a tick leaves it: the last edit a person's), the budget holds.
    gh.editIssue(real().number, newest, 'maintainer')
    const next = await runMerged(BUDGET, { title: 'Four' })
    expect(next.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(sim.requests('create')).toHaveLength(2)
    expect(servers.ledgerOf(undefined, real())?.waiting?.changes.map(c => c.title)).toEqual([
      'Three',
      'Four'
    ])
  })

  it('a dashboard whose label was taken off (and closed) with changes waiting is found again, never replaced by an empty one', async () => {
    const approval = { approval: 'dashboard' }
    await runMerged(approval, { title: 'One' })
    const real = theDashboard()
    expect(servers.ledgerOf(undefined, real)?.waiting?.changes).toHaveLength(1)
    // A label-sync bot removes the label; a stale bot closes the issue.
    real.labels = []
    real.state = 'closed'
    const next = await runMerged(approval, { title: 'Two' })
    expect(next.code).toBe(0)
    expect(next.log).toContain(
      `The dashboard ${`https://github.com/acme/app/issues/${real.number}`} had lost its label '${LABEL}' and was closed: found again by its author and title`
    )
    expect(theDashboard().number).toBe(real.number)
    expect(real.labels).toEqual([LABEL])
    expect(real.state).toBe('open')
    expect(servers.ledgerOf(undefined, real)?.waiting?.changes.map(c => c.title)).toEqual([
      'One',
      'Two'
    ])
    expect(sim.requests('create')).toHaveLength(0)
  })

  it('a label moved onto another issue of the action: that issue is left alone, the dashboard found by its title', async () => {
    const approval = { approval: 'dashboard' }
    await runMerged(approval, { title: 'One' })
    const real = theDashboard()
    real.labels = []
    const other = gh.openIssue({
      title: 'Weekly link check',
      body: 'All links fine.',
      labels: [LABEL],
      user: { login: real.user.login, type: 'Bot' }
    })
    const next = await runMerged(approval, { title: 'Two' })
    expect(next.outputs.result).toBe('waiting')
    expect(next.log).toContain(
      `#${other.number} has the label '${LABEL}' but is not the dashboard (its title is not '${real.title}' and it holds no dashboard state), so it is left alone: take the label off.`
    )
    expect(other.body).toBe('All links fine.')
    expect(other.title).toBe('Weekly link check')
    expect(servers.ledgerOf(undefined, real)?.waiting?.changes.map(c => c.title)).toEqual([
      'One',
      'Two'
    ])
  })

  it('a state from before states were bound to their issue, restored into the dashboard, is refused', async () => {
    await runMerged(BUDGET, { title: 'One' })
    const real = theDashboard()
    const signer = new RecordSigner(SIM_API_KEY)
    const read = readDashboardState(real.body, signer, 'acme/app', real.number)
    if (!read.ok) throw new Error('the dashboard holds no state')
    const { issue: _issue, version: _version, writtenAt: _at, ...legacy } = read.ledger
    const page = real.body.replace(/<!-- mintlify-agent-ledger[^]*$/, '')
    const legacyBody = `${page}\n${ledgerRecord(legacy, signer, dashboardPlace('acme/app'), clock.wallNow())}`
    await clock.sleep(3_600_000)
    await runMerged(BUDGET, { title: 'Two' })
    gh.editIssue(real.number, legacyBody, 'maintainer')
    const refused = await runMerged(BUDGET, { title: 'Three' })
    expect(refused.code).toBe(1)
    expect(refused.log).toContain(
      `::error::The dashboard https://github.com/acme/app/issues/${real.number} holds a state older`
    )
    expect(sentTimes('Two')).toBe(1)
    expect(sim.requests('create')).toHaveLength(2)
  })

  it('a dashboard deleted or transferred while changes wait is never replaced silently by an empty one', async () => {
    const approval = { approval: 'dashboard' }
    await runMerged(approval, { title: 'One' })
    const gone = theDashboard()
    expect(servers.ledgerOf(undefined, gone)?.waiting?.changes).toHaveLength(1)
    // Deleted by an admin, or transferred to another repository by someone with write rights.
    gh.issues.delete(gone.number)
    const next = await runMerged(approval, { title: 'Two' })
    const fresh = theDashboard()
    expect(fresh.number).not.toBe(gone.number)
    expect(next.log).toContain(
      `::notice title=Mintlify agent::No docs agent dashboard was found (no issue labelled '${LABEL}', and none titled '${gone.title}' opened by @github-actions[bot], open or closed): https://github.com/acme/app/issues/${fresh.number} is opened with an empty ledger, and the budget ('max-jobs', 'max-credits') counts from here. If an earlier dashboard was deleted or transferred to another repository, what waited there and its last documented commit are not carried over`
    )
    expect(servers.ledgerOf(undefined, fresh)?.waiting?.changes.map(c => c.title)).toEqual(['Two'])
  })

  it('a late event of an older merge sends nothing again and never moves the last documented commit backwards', async () => {
    await runMerged({ fold: 'never' }, { title: 'One' })
    const alpha = servers.mergeNext({ title: 'Alpha' })
    const beta = servers.mergeNext({ title: 'Beta' })
    // Beta's run comes first and documents both; Alpha's event arrives after it.
    await run({ event: servers.mergedEvent(beta), inputs: { fold: 'never' } })
    expect(sentTimes('Alpha')).toBe(1)
    const documented = servers.ledgerOf()?.documented?.sha
    const before = theDashboard().body
    const late = await run({ event: servers.mergedEvent(alpha), inputs: { fold: 'never' } })
    expect(late.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(late.log).toContain(
      `is older than the last documented commit ${documented?.slice(0, 12)} (an earlier change, its event late or re-run): its changes are documented already`
    )
    expect(late.log).not.toContain('the history was rewritten')
    expect(sentTimes('Alpha')).toBe(1)
    expect(theDashboard().body).toBe(before)
    await runMerged({ fold: 'never' }, { title: 'Gamma' })
    expect(sentTimes('Beta')).toBe(1)
    expect(sentTimes('Gamma')).toBe(1)
  })

  it("a re-run is refused only when the dashboard's state cannot be read, not for a notice about it", async () => {
    await runMerged({ fold: 'never' }, { title: 'One' })
    const real = theDashboard()
    real.locked = true
    const rerun = await run({
      event: servers.mergedEvent(servers.mergeNext({ title: 'Two' })),
      inputs: { fold: 'never' },
      attempt: 2
    })
    expect(rerun.code).toBe(0)
    expect(rerun.outputs.result).toBe('pr-opened')
    expect(rerun.log).toContain(
      `::notice title=Mintlify agent::The dashboard https://github.com/acme/app/issues/${real.number} is locked: people cannot tick its boxes until it is unlocked.`
    )
    expect(sentTimes('Two')).toBe(1)
    // Its hidden state deleted: what an earlier attempt started is unknown, so nothing starts.
    real.locked = false
    gh.editIssue(real.number, 'The state was here.', 'maintainer')
    const blind = await run({
      event: servers.mergedEvent(servers.mergeNext({ title: 'Three' })),
      inputs: { fold: 'never' },
      attempt: 2
    })
    expect(blind.code).toBe(1)
    expect(blind.log).toContain(
      `::error::Attempt 2 of this run could not read the state of https://github.com/acme/app/issues/${real.number} to find the job an earlier attempt may have started, so it does not start another.`
    )
    expect(sentTimes('Three')).toBe(0)
  })

  it('a run never moves the last documented commit back past what another run wrote while it ran', async () => {
    await runMerged({ fold: 'never' }, { title: 'One' })
    const beta = servers.mergeNext({ title: 'Beta' })
    const gamma = servers.mergeNext({ title: 'Gamma' })
    const dashboard = theDashboard()
    const signer = new RecordSigner(SIM_API_KEY)
    // Another run (of another workflow) documents up to Gamma while Beta's run checks the dashboard.
    const stop = gh.onRequest(request => {
      if (request.method !== 'PATCH' || !request.path.endsWith(`/issues/${dashboard.number}`))
        return
      stop()
      const read = readDashboardState(dashboard.body, signer, 'acme/app', dashboard.number)
      if (!read.ok) throw new Error('the dashboard holds no state')
      const ledger = read.ledger
      const project = ledger.projects[SIM_PROJECT]
      if (!project) throw new Error('no project')
      project.documented = { sha: gamma.mergeCommit as string, at: clock.wallNow() }
      ledger.version = (ledger.version ?? 0) + 1
      ledger.writtenAt = clock.wallNow() + 1000
      const page = dashboard.body.replace(/<!-- mintlify-agent-ledger[^]*$/, '')
      dashboard.body = `${page}\n${ledgerRecord(ledger, signer, dashboardPlace('acme/app', dashboard.number), clock.wallNow())}`
    })
    await run({ event: servers.mergedEvent(beta), inputs: { fold: 'never' } })
    expect(sentTimes('Beta')).toBe(1)
    expect(servers.ledgerOf(undefined, dashboard)?.documented?.sha).toBe(gamma.mergeCommit)
  })

  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
