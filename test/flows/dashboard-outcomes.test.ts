import { beforeEach, describe, expect, it } from 'vitest'
import type { FakeGitHub, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import { CodeChangeServers, DOCS_TOKEN } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const DOCS = 'acme/docs'
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})

const mergeNext = (over: Partial<FakePull> = {}): FakePull => servers.mergeNext(over)
/** The next merge's run: a new job each time (fold: never), with docs-token and expire-after: 14d. */
const runMerged = (inputs: Record<string, string> = {}, over: Partial<FakePull> = {}) => {
  servers.runId++
  const pull = mergeNext(over)
  return runInProcess({
    clock,
    ...servers.step({
      event: servers.mergedEvent(pull),
      inputs: { 'docs-token': DOCS_TOKEN, 'expire-after': '14d', fold: 'never', ...inputs }
    })
  })
}
const numberOf = (link: unknown): number => Number(String(link).split('/').pop())
/** The job's docs pull request as GitHub shows it, opened now. */
const docsPull = (run: RunResult, over: Partial<FakePull> = {}): FakePull =>
  gh.addPull(DOCS, {
    number: numberOf(run.outputs.prLink),
    state: 'open',
    merged: false,
    user: { login: 'mintlify[bot]', type: 'Bot' },
    createdAt: clock.wallNow(),
    ...over
  })
const merged = (after: number) => ({
  state: 'closed' as const,
  merged: true,
  mergedAt: clock.wallNow() + after,
  closedAt: clock.wallNow() + after
})
const dashboard = (): string =>
  [...gh.issues.values()].find(i => i.labels.includes('docs-agent-dashboard'))?.body ?? ''
const ledgerOf = () => servers.ledgerOf()
const outcomesOf = (body: string): string =>
  /#### Outcomes, last 30 days[\s\S]*?\n\n[\s\S]*?\n\n([\s\S]*?)\n\n/.exec(body)?.[1] ?? ''
/** The GraphQL reads of a docs pull request's timeline. */
const timelineReads = () =>
  gh.requests.filter(r => JSON.stringify(r.body ?? '').includes('timelineItems'))
const docsReads = () =>
  gh.requests.filter(r => r.method === 'GET' && r.path.startsWith(`/repos/${DOCS}/pulls/`))

describe('the outcomes of the last 30 days', () => {
  it('counts merged, closed, expired and open docs pull requests by their creation, with the acceptance rate, the median time to merge and the credits per merge', async () => {
    // 40 days ago: merged, but outside the window by the end.
    docsPull(await runMerged(), merged(2 * HOUR))
    await clock.sleep(15 * DAY)
    // 25 days ago: merged 4 hours after it was opened.
    docsPull(await runMerged(), merged(4 * HOUR))
    await clock.sleep(5 * DAY)
    // 20 days ago: closed by a person without merging.
    docsPull(await runMerged(), { state: 'closed', closedAt: clock.wallNow() + DAY })
    await clock.sleep(2 * DAY)
    // 18 days ago: left open; expire-after closes it.
    docsPull(await runMerged())
    await clock.sleep(8 * DAY)
    // 10 days ago: merged 4 days after.
    docsPull(await runMerged(), merged(4 * DAY))
    await clock.sleep(8 * DAY)
    // 2 days ago and now: open.
    docsPull(await runMerged())
    await clock.sleep(2 * DAY)
    const last = await runMerged()
    expect(last.code).toBe(0)
    docsPull(last)
    const states = ledgerOf()?.jobs.map(j => j.state)
    expect(states).toEqual(['merged', 'merged', 'closed', 'expired', 'merged', 'open', 'open'])
    const figures = outcomesOf(dashboard())
    expect(figures).toContain('- **Jobs and follow-ups started**: 6')
    expect(figures).toContain(
      '- **Docs pull requests**: 2 merged · 1 closed without merge · 1 expired · 2 still open'
    )
    expect(figures).toContain('- **Accepted**: 50% (2 merged of 4 decided)')
    // From the job's start: 4 hours and 4 days, so 50 hours.
    expect(figures).toContain('- **Median time from job start to merge**: 2.1 days')
    // 6 jobs at 180 credits, over 2 merged.
    expect(figures).toMatch(
      /- \*\*Credits per merged docs pull request \(estimate\)\*\*: about 540 \(.*180 credits a run/
    )
  })

  it('reckons the zero-touch rate from who committed to each merged docs pull request, and counts drafts apart', async () => {
    const agentCommit = {
      kind: 'commit' as const,
      at: clock.wallNow(),
      email: 'agent@mintlify.com'
    }
    docsPull(await runMerged(), { ...merged(HOUR), timeline: [agentCommit] })
    docsPull(await runMerged(), {
      ...merged(2 * HOUR),
      timeline: [agentCommit, { kind: 'commit', at: clock.wallNow() + HOUR, login: 'bob' }]
    })
    docsPull(await runMerged(), { draft: true })
    const last = await runMerged()
    expect(last.code).toBe(0)
    const figures = outcomesOf(dashboard())
    expect(figures).toContain("- **Zero-touch**: 50% (1 of 2 merged without a person's commit)")
    expect(figures).toContain(
      '2 merged · 0 closed without merge · 0 expired · 1 still open · 1 open as drafts, counted apart'
    )
    expect(ledgerOf()?.jobs.map(j => j.personCommitted)).toEqual([
      false,
      true,
      undefined,
      undefined
    ])
    // One activity read per merged docs pull request, in the runs that saw them merged.
    const activityReads = gh.requests.filter(r =>
      JSON.stringify(r.body ?? '').includes('timelineItems')
    )
    expect(activityReads).toHaveLength(2)
    // Known now: never read again.
    suite.keepCalls()
    await runMerged()
    expect(timelineReads()).toHaveLength(0)
  })

  it('leaves out of the zero-touch rate a merged pull request whose commits were not all read, and reads it no more', async () => {
    const agentCommit = (i: number) => ({
      kind: 'commit' as const,
      at: clock.wallNow() + i,
      email: 'agent@mintlify.com'
    })
    // The agent's commit, a person's, then more of the agent's than one read holds: the person's is unread.
    const timeline = [
      agentCommit(0),
      { kind: 'commit' as const, at: clock.wallNow(), login: 'bob' },
      ...Array.from({ length: 100 }, (_, i) => agentCommit(i + 1))
    ]
    docsPull(await runMerged(), { ...merged(HOUR), timeline })
    docsPull(await runMerged(), { ...merged(HOUR), timeline: [agentCommit(0)] })
    await runMerged()
    expect(ledgerOf()?.jobs[0]?.personCommitted).toBeUndefined()
    expect(ledgerOf()?.jobs[0]?.touchUnread).toBe(true)
    expect(outcomesOf(dashboard())).toContain(
      "- **Zero-touch**: 100% (1 of 1 merged without a person's commit; 1 merged with more events than one read holds, not known)"
    )
    suite.keepCalls()
    await runMerged()
    expect(timelineReads()).toHaveLength(0)
  })

  it('turns an expired docs pull request a person reopened and merged into a merged one', async () => {
    const first = await runMerged()
    const pull = docsPull(first)
    await clock.sleep(15 * DAY)
    await runMerged()
    expect(pull.state).toBe('closed')
    expect(ledgerOf()?.jobs[0]?.state).toBe('expired')
    // The closing comment invites reopening: a person does, and merges it.
    Object.assign(pull, merged(DAY))
    await clock.sleep(2 * DAY)
    await runMerged()
    expect(ledgerOf()?.jobs[0]?.state).toBe('merged')
    // GitHub's times are whole seconds.
    expect(ledgerOf()?.jobs[0]?.endedAt).toBe(Math.floor((pull.mergedAt ?? 0) / 1000) * 1000)
    expect(outcomesOf(dashboard())).toContain(
      '- **Docs pull requests**: 1 merged · 0 closed without merge · 0 expired'
    )
  })

  it('says so when nothing is decided yet', async () => {
    docsPull(await runMerged())
    await runMerged()
    const figures = outcomesOf(dashboard())
    expect(figures).toContain('- **Accepted**: no decided pull request yet')
    expect(figures).toContain(
      '- **Median time from job start to merge**: no merged pull request yet'
    )
    expect(figures).toContain('0 merged · 0 closed without merge · 0 expired · 2 still open')
  })

  it('reads at most 5 docs pull requests a run, those never read first, and caches what it read', async () => {
    const opened: FakePull[] = []
    for (let i = 0; i < 8; i++) {
      opened.push(docsPull(await runMerged({ 'expire-after': '' })))
      await clock.sleep(HOUR)
    }
    for (const pull of opened) Object.assign(pull, merged(0))
    suite.keepCalls()
    docsPull(await runMerged({ 'expire-after': '' }))
    expect(docsReads()).toHaveLength(5)
    const read = new Set(docsReads().map(r => r.path))
    suite.keepCalls()
    docsPull(await runMerged({ 'expire-after': '' }))
    expect(docsReads().length).toBeLessThanOrEqual(5)
    // The next run reads the others, not the same ones again.
    for (const r of docsReads()) expect(read.has(r.path)).toBe(false)
    expect(
      ledgerOf()
        ?.jobs.slice(0, 8)
        .map(j => j.state)
    ).toEqual(Array(8).fill('merged'))
    // Known now: the next run reads none of them.
    suite.keepCalls()
    await runMerged({ 'expire-after': '' })
    for (const pull of opened)
      expect(docsReads().some(r => r.path.endsWith(`/pulls/${pull.number}`))).toBe(false)
  })

  it('keeps the jobs of the window beyond the last ten, without their changes, within the ledger’s budget', async () => {
    for (let i = 0; i < 14; i++) {
      docsPull(await runMerged({ 'expire-after': '' }), merged(HOUR))
      await clock.sleep(DAY)
    }
    await runMerged({ 'expire-after': '' })
    const jobs = ledgerOf()?.jobs ?? []
    expect(jobs).toHaveLength(15)
    expect(jobs[0]?.changes).toEqual([])
    expect(jobs[0]?.moreChanges).toBe(1)
    expect(outcomesOf(dashboard())).toContain('14 merged')
  })

  it('reads again a docs pull request older than the window that the ledger still lists as open: one merged by hand leaves the open count', async () => {
    const first = await runMerged({ 'expire-after': '' })
    const pull = docsPull(first)
    await clock.sleep(40 * DAY)
    // Merged by hand 35 days after it was opened; no run read it since.
    Object.assign(pull, { ...merged(0), mergedAt: clock.wallNow() - 5 * DAY })
    pull.closedAt = pull.mergedAt
    expect(ledgerOf()?.jobs[0]?.state).toBe('open')
    await runMerged({ 'expire-after': '' })
    // GitHub's times are whole seconds.
    const mergedAt = Math.floor((pull.mergedAt as number) / 1000) * 1000
    expect(ledgerOf()?.jobs[0]).toMatchObject({ state: 'merged', endedAt: mergedAt })
    expect(docsReads().some(r => r.path === `/repos/${DOCS}/pulls/${pull.number}`)).toBe(true)
  })

  it('a docs token without access: a warning naming docs-token, and the run goes on', async () => {
    docsPull(await runMerged({ 'expire-after': '' }))
    await runMerged({ 'expire-after': '' })
    gh.failures.set('pull', { status: 403, times: 1 })
    const next = await runMerged({ 'expire-after': '' })
    expect(next.code).toBe(0)
    expect(next.outputs.result).toBe('pr-opened')
    expect(next.log).toMatch(
      /::warning::Could not read the docs pull request \S+ with 'docs-token' \(HTTP 403\), so the dashboard's outcomes are not brought up to date in this run\. Give 'docs-token' read access/
    )
    expect(
      next.log
        .split('\n')
        .filter(l => !l.startsWith('::add-mask::'))
        .join('\n')
    ).not.toContain(DOCS_TOKEN)
  })

  it('shows figures only: what the service or a title holds never reaches the outcomes', async () => {
    const hostile = 'x](https://evil.example) <img src=x onerror=alert(1)> @everyone'
    sim.planNext({ id: `job ${hostile}` })
    await runMerged({}, { title: hostile })
    await runMerged({}, { title: hostile })
    const body = dashboard()
    const figures = outcomesOf(body)
    expect(figures).toContain('- **Jobs and follow-ups started**: 2')
    expect(figures).not.toMatch(/evil|onerror|@everyone/)
    // Titles are escaped as everywhere on the dashboard.
    expect(body).toContain('x\\]\\(https:')
    expect(body).toContain('\\<img src=x')
  })
})

describe('reviewers: authors', () => {
  const reviewing = (inputs: Record<string, string> = {}, over: Partial<FakePull> = {}) =>
    runMerged({ 'expire-after': '', fold: 'open-pr', reviewers: 'authors', ...inputs }, over)
  const person = (login: string) => ({ user: { login, type: 'User' as const } })
  const requests = () =>
    gh.requests.filter(r => r.method === 'POST' && r.path.endsWith('/requested_reviewers'))
  beforeEach(() => {
    // The agent's docs pull requests, as the simulator numbers them.
    for (let n = 100; n < 600; n++) docsPullNumbered(n)
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    gh.permissions.set('bob', { permission: 'read', role_name: 'read' })
    gh.permissions.set('dave', { permission: 'none', role_name: 'none' })
  })
  const docsPullNumbered = (n: number) =>
    gh.addPull(DOCS, {
      number: n,
      state: 'open',
      merged: false,
      user: { login: 'mintlify[bot]', type: 'Bot' },
      createdAt: clock.wallNow()
    })

  it('requests the authors with access, the folded changes’ in the run that folds them, with docs-token', async () => {
    const first = await reviewing({}, person('alice'))
    expect(first.outputs.result).toBe('pr-opened')
    const docs = gh.pulls.get(`${DOCS}#${numberOf(first.outputs.prLink)}`)
    expect(docs?.requestedReviewers).toEqual(['alice'])
    expect(requests()[0]?.authorization).toContain(DOCS_TOKEN)
    expect(requests()[0]?.body).toEqual({ reviewers: ['alice'] })
    // Checked first, on the docs repository.
    expect(gh.requests.some(r => r.path === `/repos/${DOCS}/collaborators/alice/permission`)).toBe(
      true
    )
    // Folded: bob reads the docs repository; carol has no account there, dave no access.
    suite.keepCalls()
    const second = await reviewing({}, person('bob'))
    expect(second.outputs).toMatchObject({ decision: 'follow-up', jobId: first.outputs.jobId })
    expect(requests().map(r => r.body)).toEqual([{ reviewers: ['bob'] }])
    expect(docs?.requestedReviewers).toEqual(['alice', 'bob'])
    suite.keepCalls()
    const third = await reviewing({}, person('carol'))
    expect(third.code).toBe(0)
    expect(requests()).toHaveLength(0)
    expect(third.log).toContain('Not requested as reviewers, without access to acme/docs: carol.')
    suite.keepCalls()
    await reviewing({}, person('dave'))
    expect(requests()).toHaveLength(0)
  })

  it('requests them in runs without the dashboard too', async () => {
    const run = await reviewing({ dashboard: 'false' }, person('alice'))
    expect(run.outputs.result).toBe('pr-opened')
    expect(requests().map(r => r.body)).toEqual([{ reviewers: ['alice'] }])
    expect(requests()[0]?.path).toBe(
      `/repos/${DOCS}/pulls/${numberOf(run.outputs.prLink)}/requested_reviewers`
    )
  })

  it('never asks a bot', async () => {
    await reviewing(
      { 'allowed-bots': 'renovate' },
      { user: { login: 'renovate[bot]', type: 'Bot' } }
    )
    expect(requests()).toHaveLength(0)
    expect(gh.requests.some(r => r.path.includes('/collaborators/'))).toBe(false)
  })

  it('a docs-token that cannot see the docs repository: a warning naming it, not people without access', async () => {
    // Neither the authors nor the docs pull request: GitHub answers 404 for all of it.
    gh.permissions.delete('alice')
    for (let n = 100; n < 600; n++) gh.pulls.delete(`${DOCS}#${n}`)
    const again = await reviewing({}, person('alice'))
    expect(again.code).toBe(0)
    expect(again.outputs.result).toBe('pr-opened')
    expect(requests()).toHaveLength(0)
    expect(again.log).toMatch(
      /::warning::GitHub knows none of alice on acme\/docs \(HTTP 404 for each\), as it answers when 'docs-token' cannot see that repository/
    )
  })

  it('a refused request: a warning naming docs-token, and the run goes on', async () => {
    gh.failures.set('request-reviewers', 403)
    const run = await reviewing({}, person('alice'))
    expect(run.code).toBe(0)
    expect(run.outputs.result).toBe('pr-opened')
    expect(run.log).toMatch(
      /::warning::Could not request reviews from alice on \S+ with 'docs-token' \(HTTP 403\)\. Give 'docs-token' write access/
    )
  })

  it.each([
    [{ 'docs-token': '' }, /'reviewers' in \.github\/docs-agent\.yml needs the input 'docs-token'/],
    [{ reviewers: 'everyone' }, /docs-agent\.yml:\d+:\d+: reviewers: must be one of authors/]
  ])('refuses %j with a message naming the input', async (inputs, message) => {
    const result = await reviewing(inputs)
    expect(result.code).toBe(1)
    expect(result.log).toMatch(message)
    expect(sim.exchanges).toHaveLength(0)
  })
})

describe("GitHub's OpenAPI description", () => {
  it('describes every GitHub call of this suite', () => {
    expect(suite.problems()).toEqual([])
  })
})
