import { describe, expect, it } from 'vitest'
import type { FakeGitHub, FakeIssue, FakePull, FakeTimelineItem } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import {
  type ChangeRun,
  CodeChangeServers,
  DOCS_TOKEN,
  besideRecord
} from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'
import { escapeMarkdown } from '../../src/runner/markdown.js'

const DAY = 86_400_000
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
const mergedEvent = (pull: FakePull) => servers.mergedEvent(pull)
/** The next merge's run, with `inputs` over docs-token and expire-after: 14d. */
const runMerged = (inputs: Record<string, string> = {}, r: ChangeRun = {}): Promise<RunResult> => {
  servers.runId++
  return runInProcess({
    clock,
    ...servers.step({
      event: mergedEvent(mergeNext()),
      ...r,
      inputs: { 'docs-token': DOCS_TOKEN, 'expire-after': '14d', ...inputs }
    })
  })
}
const seconds = (ms?: number): number => Math.floor((ms ?? 0) / 1000) * 1000
const numberOf = (link: unknown): number => Number(String(link).split('/').pop())
/** The job's docs pull request as GitHub shows it, opened now. */
const docsPull = (link: unknown, over: Partial<FakePull> = {}): FakePull =>
  gh.addPull(DOCS, {
    number: numberOf(link),
    state: 'open',
    merged: false,
    user: { login: 'mintlify[bot]', type: 'Bot' },
    createdAt: clock.wallNow(),
    ...over
  })
const dashboards = (): FakeIssue[] => servers.dashboards()
const ledgerOf = () => servers.ledgerOf()
const closes = () =>
  gh.requests.filter(r => r.method === 'PATCH' && r.path.startsWith(`/repos/${DOCS}/pulls/`))

describe('expire-after', () => {
  it('closes a docs pull request open longer, with a comment linking the dashboard, and starts a new job', async () => {
    const first = await runMerged()
    expect(first.outputs.result).toBe('pr-opened')
    const stale = docsPull(first.outputs.prLink)
    await clock.sleep(15 * DAY)
    const next = await runMerged()
    expect(next.code).toBe(0)
    expect(stale.state).toBe('closed')
    expect(closes()).toHaveLength(1)
    expect(closes()[0]?.authorization).toContain(DOCS_TOKEN)
    const [comment] = besideRecord(gh.commentsOn(stale.number, DOCS))
    expect(comment?.body).toContain('`expire-after: 14d`')
    expect(comment?.body).toContain(`(${gh.issueView(dashboards()[0] as FakeIssue).html_url})`)
    expect(next.log).toContain(`Closed the docs pull request ${first.outputs.prLink}`)
    // Forgotten for folding: the change starts a fresh job.
    expect(next.outputs).toMatchObject({ decision: 'new-job', result: 'pr-opened' })
    expect(sim.requests('create')).toHaveLength(2)
    expect(sim.requests('message')).toHaveLength(0)
    expect(ledgerOf()?.jobs.map(j => j.state)).toEqual(['expired', 'open'])
    expect(ledgerOf()?.jobs[0]?.endedAt).toBeGreaterThan(0)
    expect(dashboards()[0]?.body).toMatch(/\| expired \|/)
    // Closed once: the next run neither reads nor closes it again.
    docsPull(next.outputs.prLink)
    suite.keepCalls()
    await runMerged()
    expect(closes()).toHaveLength(0)
    expect(gh.requests.some(r => r.path === `/repos/${DOCS}/pulls/${stale.number}`)).toBe(false)
  })

  it('leaves a younger docs pull request open and folds into it, reading nothing for expiry', async () => {
    const first = await runMerged()
    docsPull(first.outputs.prLink)
    await clock.sleep(13 * DAY)
    suite.keepCalls()
    const next = await runMerged()
    expect(next.outputs).toMatchObject({ decision: 'follow-up', jobId: first.outputs.jobId })
    expect(closes()).toHaveLength(0)
    // Only the fold decision reads the docs pull request.
    expect(gh.requests.filter(r => r.path.startsWith(`/repos/${DOCS}/pulls/`))).toHaveLength(1)
  })

  it('measures from the docs pull request’s creation, not the job’s start', async () => {
    const first = await runMerged()
    await clock.sleep(10 * DAY)
    const late = docsPull(first.outputs.prLink)
    await clock.sleep(5 * DAY)
    const next = await runMerged()
    expect(late.state).toBe('open')
    expect(next.outputs).toMatchObject({ decision: 'follow-up' })
    // GitHub's times are to the second.
    expect(ledgerOf()?.jobs[0]?.prCreatedAt).toBe(seconds(late.createdAt))
  })

  it('never closes a docs pull request already merged: it is recorded as merged', async () => {
    const first = await runMerged()
    const done = docsPull(first.outputs.prLink, {
      state: 'closed',
      merged: true,
      mergedAt: clock.wallNow() + DAY
    })
    await clock.sleep(15 * DAY)
    const next = await runMerged()
    expect(closes()).toHaveLength(0)
    expect(besideRecord(gh.commentsOn(done.number, DOCS))).toHaveLength(0)
    expect(next.outputs).toMatchObject({ decision: 'new-job' })
    expect(ledgerOf()?.jobs.map(j => j.state)).toEqual(['merged', 'open'])
    expect(ledgerOf()?.jobs[0]?.endedAt).toBe(seconds(done.mergedAt))
  })

  it('a docs token without access: a warning naming docs-token, and the run goes on', async () => {
    const first = await runMerged()
    const stale = docsPull(first.outputs.prLink)
    await clock.sleep(15 * DAY)
    gh.failures.set('pull', { status: 403, times: 1 })
    const next = await runMerged()
    expect(next.code).toBe(0)
    expect(next.log).toMatch(
      /::warning::Could not read the docs pull request \S+ with 'docs-token' \(HTTP 403\).*Give 'docs-token' read and write access to the pull requests of acme\/docs/
    )
    expect(stale.state).toBe('open')
    // Nothing started twice: the open docs pull request takes the change as before.
    expect(next.outputs).toMatchObject({ decision: 'follow-up', result: 'pr-opened' })
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('a docs token that can read but not close: a warning, the pull request stays in the ledger', async () => {
    const first = await runMerged()
    const stale = docsPull(first.outputs.prLink)
    await clock.sleep(15 * DAY)
    gh.failures.set('update-pull', 403)
    const next = await runMerged()
    expect(next.code).toBe(0)
    expect(next.log).toMatch(/::warning::Could not close the docs pull request .*'docs-token'/)
    expect(stale.state).toBe('open')
    expect(besideRecord(gh.commentsOn(stale.number, DOCS))).toHaveLength(0)
    expect(next.outputs).toMatchObject({ decision: 'follow-up' })
  })

  it('dry-run: says what it would close, and closes nothing', async () => {
    const first = await runMerged()
    const stale = docsPull(first.outputs.prLink)
    await clock.sleep(15 * DAY)
    const next = await runMerged({ 'dry-run': 'true' })
    expect(next.outputs).toMatchObject({ result: 'dry-run' })
    expect(next.log).toContain('would be closed')
    expect(stale.state).toBe('open')
    expect(closes()).toHaveLength(0)
  })

  it.each([
    [
      { 'docs-token': '' },
      /'expire-after' in \.github\/docs-agent\.yml needs the input 'docs-token'/
    ],
    [{ 'expire-after': '14 days' }, /docs-agent\.yml:\d+:\d+: expire-after: must be a duration/],
    [{ 'expire-after': '14' }, /docs-agent\.yml:\d+:\d+: expire-after: must be a duration/],
    [{ 'expire-after': '10m' }, /docs-agent\.yml:\d+:\d+: expire-after: must be from 1h to 365d/]
  ])('refuses %j with a message naming the key of the policy file', async (inputs, message) => {
    const result = await runMerged(inputs)
    expect(result.code).toBe(1)
    expect(result.log).toMatch(message)
    expect(sim.exchanges).toHaveLength(0)
  })
})

describe('expire-after never closes a person’s work', () => {
  const DOCS_WRITER = { login: 'docs-writer', type: 'User' as const }
  /** A docs pull request opened now by the agent, with its own first commit. */
  const agentPull = (link: unknown, timeline: FakeTimelineItem[] = []): FakePull =>
    docsPull(link, {
      timeline: [{ kind: 'commit', at: clock.wallNow(), email: 'agent@mintlify.com' }, ...timeline]
    })
  const kept = () => ledgerOf()?.jobs[0]?.kept?.why
  /** The GraphQL requests for a pull request's timeline. */
  const activityReads = () =>
    gh.requests.filter(
      r => r.path.endsWith('/graphql') && JSON.stringify(r.body).includes('timelineItems')
    )

  it.each([
    ['a person’s commit', { kind: 'commit', login: 'bob' }, '@bob pushed a commit to it'],
    [
      'a commit by a git author GitHub knows no account of',
      { kind: 'commit', email: 'bob@laptop.local' },
      'a git author GitHub matches to no account pushed a commit to it'
    ],
    ['an approval', { kind: 'review', login: 'carol', state: 'APPROVED' }, '@carol approved it'],
    [
      'a request for changes',
      { kind: 'review', login: 'dave', state: 'CHANGES_REQUESTED' },
      '@dave requested changes on it'
    ],
    [
      'a person’s push of a commit the agent authored (a rebase)',
      { kind: 'commit', email: 'agent@mintlify.com', committer: { login: 'bob' } },
      '@bob pushed to it'
    ],
    ['a person’s force-push', { kind: 'force-push', login: 'bob' }, '@bob pushed to it'],
    [
      'an approval with docs-token, a person’s own token',
      { kind: 'review', login: 'docs-writer', state: 'APPROVED' },
      '@docs-writer approved it'
    ]
  ] as const)(
    'keeps it open for good after %s, and the dashboard says why',
    async (_, item, why) => {
      gh.tokenUsers.set(DOCS_TOKEN, DOCS_WRITER)
      const first = await runMerged()
      const pull = agentPull(first.outputs.prLink, [{ ...item, at: clock.wallNow() + DAY }])
      await clock.sleep(40 * DAY)
      const next = await runMerged()
      expect(next.code).toBe(0)
      expect(pull.state).toBe('open')
      expect(closes()).toHaveLength(0)
      expect(kept()).toContain(why)
      expect(next.log).toContain(
        `Kept the docs pull request ${first.outputs.prLink} open past 'expire-after: 14d': ${why}`
      )
      expect(dashboards()[0]?.body).toContain('#### Kept open past expire-after')
      // Named, never mentioned.
      expect(dashboards()[0]?.body).toContain(`: ${escapeMarkdown(why)}`)
      // The open docs pull request takes the change.
      expect(next.outputs).toMatchObject({ decision: 'follow-up' })
    }
  )

  it('keeps one with the keep label, whoever added it, and keep-label names another', async () => {
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink)
    pull.labels = ['Docs-Agent-Keep']
    await clock.sleep(15 * DAY)
    await runMerged()
    expect(pull.state).toBe('open')
    expect(kept()).toBe("it has the label 'docs-agent-keep'")
    const other = await runMerged({ 'keep-label': 'hold' })
    expect(other.code).toBe(0)
    expect(pull.state).toBe('closed')
  })

  it('measures from a person’s last comment, review or label: closed only once that is older, saying so', async () => {
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink, [
      { kind: 'label', login: 'erin', label: 'docs', at: clock.wallNow() + 2 * DAY },
      { kind: 'review', login: 'erin', state: 'COMMENTED', at: clock.wallNow() + 3 * DAY }
    ])
    await clock.sleep(10 * DAY)
    gh.addComment(
      pull.number,
      'Looks close, one more pass?',
      { login: 'frank', type: 'User' },
      DOCS
    )
    await clock.sleep(10 * DAY)
    // Twenty days old, but a person commented ten days ago.
    const young = await runMerged()
    expect(pull.state).toBe('open')
    expect(kept()).toContain('a comment by @frank on')
    expect(young.log).toContain("within 'expire-after: 14d'")
    await clock.sleep(5 * DAY)
    await runMerged()
    expect(pull.state).toBe('closed')
    const [closing] = besideRecord(gh.commentsOn(pull.number, DOCS)).filter(c =>
      c.body.includes('closed as stale')
    )
    expect(closing?.body).toContain(`the last was ${escapeMarkdown('a comment by @frank')}`)
    expect(closing?.body).toContain(
      'Nobody but the docs agent has touched this docs pull request since'
    )
    expect(closing?.body).toContain(
      'no commit, review, comment or label added or removed by a person'
    )
    expect(closing?.body).toContain('`docs-agent-keep`')
  })

  it('keeps it open for good after an approval GitHub dismissed when a follow-up pushed', async () => {
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink, [
      { kind: 'review', login: 'carol', state: 'APPROVED', at: clock.wallNow() + DAY }
    ])
    // The agent's follow-up pushes; the branch protection dismisses stale approvals.
    await clock.sleep(2 * DAY)
    gh.pushToPull(
      DOCS,
      pull.number,
      { kind: 'commit', at: clock.wallNow(), email: 'agent@mintlify.com' },
      true
    )
    expect(pull.timeline?.find(i => i.kind === 'review')?.state).toBe('DISMISSED')
    await clock.sleep(40 * DAY)
    const next = await runMerged()
    expect(next.code).toBe(0)
    expect(pull.state).toBe('open')
    expect(closes()).toHaveLength(0)
    expect(kept()).toContain('@carol reviewed it (approved or requested changes; GitHub dismissed')
  })

  it('dates staleness from a person removing the keep label: kept while that is recent, closed later saying so', async () => {
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink, [
      { kind: 'label', login: 'erin', label: 'docs-agent-keep', at: clock.wallNow() + DAY }
    ])
    pull.labels = ['docs-agent-keep']
    await clock.sleep(30 * DAY)
    gh.unlabel(DOCS, pull.number, 'docs-agent-keep', 'erin', clock.wallNow())
    const removedOn = new Date(clock.wallNow()).toISOString().slice(0, 10)
    const young = await runMerged()
    expect(young.code).toBe(0)
    expect(pull.state).toBe('open')
    expect(kept()).toContain(`a label removed by @erin on ${removedOn}`)
    await clock.sleep(15 * DAY)
    await runMerged()
    expect(pull.state).toBe('closed')
    const [closing] = besideRecord(gh.commentsOn(pull.number, DOCS)).filter(c =>
      c.body.includes('closed as stale')
    )
    expect(closing?.body).toContain(`since ${removedOn}`)
    expect(closing?.body).toContain(`the last was ${escapeMarkdown('a label removed by @erin')}`)
  })

  it('counts the agent’s own activity as nobody’s: its commits, bots, the docs-token identity’s comments', async () => {
    gh.tokenUsers.set(DOCS_TOKEN, DOCS_WRITER)
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink, [
      { kind: 'commit', at: clock.wallNow() + DAY, email: 'agent@mintlify.com' },
      { kind: 'commit', at: clock.wallNow() + DAY, login: 'mintlify[bot]', bot: true },
      { kind: 'label', at: clock.wallNow() + DAY, login: 'mintlify', bot: true, label: 'docs' },
      {
        kind: 'commit',
        at: clock.wallNow() + DAY,
        email: 'agent@mintlify.com',
        committer: { email: 'noreply@github.com', login: 'web-flow' }
      }
    ])
    gh.addComment(pull.number, 'Written with docs-token', DOCS_WRITER, DOCS)
    await clock.sleep(15 * DAY)
    const next = await runMerged()
    expect(next.code).toBe(0)
    expect(pull.state).toBe('closed')
    expect(ledgerOf()?.jobs[0]?.state).toBe('expired')
  })

  it('keeps the agent’s git email as first read: a person’s later squash is their commit, not the agent’s', async () => {
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink, [
      { kind: 'review', login: 'erin', state: 'COMMENTED', at: clock.wallNow() + 10 * DAY }
    ])
    await clock.sleep(15 * DAY)
    await runMerged()
    expect(ledgerOf()?.jobs[0]?.agentEmail).toBe('agent@mintlify.com')
    // Squashed into one commit by someone GitHub knows no account of: the first commit is theirs now.
    pull.timeline = [{ kind: 'commit', at: clock.wallNow(), email: 'erin@laptop.local' }]
    await clock.sleep(25 * DAY)
    const next = await runMerged()
    expect(pull.state).toBe('open')
    expect(kept()).toContain('a git author GitHub matches to no account pushed a commit to it')
    expect(next.outputs).toMatchObject({ decision: 'follow-up' })
  })

  it('closes nothing when who touched it cannot be read: a warning naming docs-token', async () => {
    const first = await runMerged()
    const pull = agentPull(first.outputs.prLink)
    await clock.sleep(15 * DAY)
    gh.failures.set('pull-activity', 403)
    const next = await runMerged()
    expect(next.code).toBe(0)
    expect(pull.state).toBe('open')
    expect(next.log).toMatch(
      /::warning::Could not read who touched the docs pull request \S+ with 'docs-token' \(HTTP 403\), so stale docs pull requests are not closed in this run: a person’s work is never closed on a guess\. Give 'docs-token' read and write access to the pull requests of acme\/docs\./
    )
  })

  it('reads a docs pull request’s activity in one request, and only once it is older than expire-after', async () => {
    const first = await runMerged()
    agentPull(first.outputs.prLink)
    await clock.sleep(13 * DAY)
    suite.keepCalls()
    await runMerged()
    expect(activityReads()).toHaveLength(0)
    await clock.sleep(2 * DAY)
    suite.keepCalls()
    await runMerged()
    expect(activityReads()).toHaveLength(1)
  })
})

describe('max-open', () => {
  const capped = (inputs: Record<string, string> = {}) =>
    runMerged({ 'expire-after': '', 'max-open': '1', fold: 'never', ...inputs })

  it('a change that cannot fold waits while the cap is reached, then the waiting changes go into one job', async () => {
    const first = await capped()
    expect(first.outputs.result).toBe('pr-opened')
    const open = docsPull(first.outputs.prLink)
    const second = await capped()
    expect(second.code).toBe(0)
    expect(second.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(second.log).toContain(`At 'max-open: 1'`)
    expect(second.log).toContain(`on the way (${first.outputs.prLink})`)
    expect(sim.requests('create')).toHaveLength(1)
    expect(ledgerOf()?.waiting?.why).toContain("'max-open: 1'")
    expect(dashboards()[0]?.body).toContain('#### Waiting: 1 change')
    expect(dashboards()[0]?.body).toContain('max-open: 1')
    const third = await capped()
    expect(third.outputs.result).toBe('skipped')
    expect(ledgerOf()?.waiting?.changes.map(c => c.pr)).toEqual([102, 103])
    // Merged by hand: its place frees, and the waiting changes go into one job with the new one.
    Object.assign(open, { state: 'closed', merged: true })
    const fourth = await capped()
    expect(fourth.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    const prompt = (sim.requests('create')[1]?.requestBody as { prompt: string }).prompt
    for (const n of [102, 103, 104]) expect(prompt).toContain(`Pull request #${n} (merged)`)
    expect(ledgerOf()?.waiting).toBeNull()
    expect(ledgerOf()?.jobs.map(j => j.state)).toEqual(['merged', 'open'])
  })

  it('counts a running job without a docs pull request yet', async () => {
    sim.planNext({ durationMs: 3_600_000 })
    const first = await capped({ wait: 'false' })
    expect(first.outputs.status).toBe('active')
    const second = await capped()
    expect(second.outputs.result).toBe('skipped')
    expect(second.log).toContain(`job ${first.outputs.jobId} (running)`)
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('counts a docs pull request it cannot read as open, saying what to grant docs-token when refused', async () => {
    const first = await capped()
    const open = docsPull(first.outputs.prLink)
    gh.failures.set('pull', 403)
    const second = await capped()
    expect(second.outputs.result).toBe('skipped')
    expect(second.log).toContain(
      `Could not read ${first.outputs.prLink}: HTTP 403: counted as open`
    )
    expect(open.state).toBe('open')
    // Not refused, only failing: nothing to grant.
    gh.failures.set('pull', 502)
    const third = await capped()
    expect(third.log).toMatch(/HTTP 502: counted as open for 'max-open'\.\n/)
  })

  it('does not stop a fold into the open docs pull request', async () => {
    const first = await capped({ fold: 'open-pr' })
    docsPull(first.outputs.prLink)
    const next = await capped({ fold: 'open-pr' })
    expect(next.outputs).toMatchObject({ decision: 'follow-up', jobId: first.outputs.jobId })
  })

  it('dry-run at the cap: the decision is a skip that says why, and nothing is written', async () => {
    const first = await capped()
    docsPull(first.outputs.prLink)
    const body = dashboards()[0]?.body
    const dry = await capped({ 'dry-run': 'true' })
    expect(dry.outputs).toMatchObject({ result: 'dry-run', decision: 'skip' })
    expect(dry.summary).toContain('max-open: 1')
    expect(dashboards()[0]?.body).toBe(body)
  })

  it.each(['0', 'two', '1.5'])('refuses max-open: %j, naming it', async raw => {
    const result = await capped({ 'max-open': raw })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /docs-agent\.yml:\d+:\d+: max-open: must be a whole number from 1 to 100/
    )
    expect(sim.exchanges).toHaveLength(0)
  })
})

describe("GitHub's OpenAPI description", () => {
  it('describes every GitHub call of this suite', () => {
    expect(
      suite.calls.some(c => c.method === 'PATCH' && c.path.startsWith(`/repos/${DOCS}/pulls/`))
    ).toBe(true)
    expect(suite.problems()).toEqual([])
  })
})
