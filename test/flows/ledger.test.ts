import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readDashboardState } from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../simulator/server.js'
import {
  APP,
  type ChangeRun,
  CodeChangeServers,
  DOCS_TOKEN,
  TOKEN,
  labelledIssue
} from '../support/code-change-runs.js'
import { escapeMarkdown } from '../../src/runner/markdown.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
beforeAll(async () => {
  servers = await CodeChangeServers.start({
    now: clock.wallNow,
    projects: [SIM_PROJECT, 'proj_other']
  })
  ;({ sim, gh } = servers)
})
afterAll(() => servers.close())
beforeEach(() => {
  servers.reset()
})

const signer = new RecordSigner(SIM_API_KEY)
/** The repository's payload fields a real event carries: the ledger keeps the default branch. */
const repository = { full_name: APP, default_branch: 'main' }
const mergeNext = (over: Partial<FakePull> = {}): FakePull => servers.mergeNext(over)
const mergedEvent = (pull: FakePull) => servers.mergedEvent(pull)
const run = (r: ChangeRun = {}): Promise<RunResult> => runInProcess({ clock, ...servers.step(r) })
const runMerged = (pull: FakePull, r: ChangeRun = {}): Promise<RunResult> =>
  run({ event: mergedEvent(pull), ...r })
const prompts = (route: 'create' | 'message' = 'create'): string[] =>
  sim.requests(route).map(e => (e.requestBody as { prompt: string }).prompt)
/** The docs pull request of a job, as GitHub shows it. */
const docsPull = (link: string, state: 'open' | 'merged' | 'closed') =>
  gh.addPull('acme/docs', {
    number: Number(link.split('/').pop()),
    state: state === 'open' ? 'open' : 'closed',
    merged: state === 'merged',
    user: { login: 'mintlify[bot]', type: 'Bot' }
  })
const dashboards = (): FakeIssue[] => servers.dashboards()
const ledgerOf = (issue = dashboards()[0]) => servers.ledgerOf(SIM_PROJECT, issue)

/**
 * `login` ticks the first 'Send these changes again' box of the dashboard: the body is changed as
 * GitHub changes it, and the run of its `issues` `edited` event (with the body before) is returned,
 * to be run (again) when wanted.
 */
/** The run started a job outside the ledger's batch, and the dashboard counted it: the first. */
function expectCountedOnce(result: RunResult, note: string): void {
  expect(result.outputs.result).toBe('pr-opened')
  expect(ledgerOf()?.spend).toHaveLength(1)
  expect(ledgerOf()?.runs.at(-1)).toMatchObject({
    result: 'job started',
    job: result.outputs.jobId,
    note
  })
}

function tickResend(dashboard: FakeIssue, login: string): () => Promise<RunResult> {
  const before = dashboard.body
  dashboard.body = before.replace(
    '- [ ] Send these changes again',
    '- [x] Send these changes again'
  )
  return () =>
    run({
      eventName: 'issues',
      event: {
        action: 'edited',
        issue: gh.issueView(dashboard),
        changes: { body: { from: before } },
        repository,
        sender: { login, type: 'User' }
      }
    })
}

describe('the ledger of a repository', () => {
  it('starts on the first merge: one job for that change, the dashboard created with the commit documented', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const pull = mergeNext({ title: 'Add retries' })
    const result = await runMerged(pull)
    expect(result.log).not.toContain('::error::')
    expect(result.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(prompts()).toHaveLength(1)
    expect(prompts()[0]).toContain('Pull request #101 (merged): Add retries')
    expect(dashboards()).toHaveLength(1)
    const project = ledgerOf()
    expect(project?.documented?.sha).toBe(pull.mergeCommit)
    expect(project?.jobs).toEqual([
      expect.objectContaining({
        id: result.outputs.jobId,
        prLink: result.outputs.prLink,
        state: 'open',
        changes: [expect.objectContaining({ pr: 101, title: 'Add retries' })]
      })
    ])
    expect(dashboards()[0]?.body).toContain('### Project `proj_sim`')
  })

  it('sends the next merge to the job whose docs pull request is open, then starts anew once it is merged', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const first = await runMerged(mergeNext({ title: 'Add retries' }))
    docsPull(first.outputs.prLink as string, 'open')
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Add backoff' }))
    expect(second.outputs).toMatchObject({ decision: 'follow-up', jobId: first.outputs.jobId })
    expect(sim.requests('create')).toHaveLength(1)
    expect(prompts('message')[0]).toContain('Pull request #102 (merged): Add backoff')
    expect(prompts('message')[0]).not.toContain('#101')
    expect(ledgerOf()?.jobs).toHaveLength(1)
    expect(ledgerOf()?.jobs[0]?.changes.map(c => c.pr)).toEqual([101, 102])
    docsPull(first.outputs.prLink as string, 'merged')
    servers.runId++
    const third = await runMerged(mergeNext({ title: 'Add jitter' }))
    expect(third.outputs).toMatchObject({ decision: 'new-job' })
    expect(third.outputs.jobId).not.toBe(first.outputs.jobId)
    expect(ledgerOf()?.jobs.map(j => j.state)).toEqual(['merged', 'open'])
  })

  it('documents every merge when a concurrency group cancels the runs between: 10 merges, runs 1, 4 and 10, 3 writes', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const pulls: FakePull[] = []
    for (let i = 0; i < 10; i++) pulls.push(mergeNext({ title: `Feature ${i + 1}` }))
    // GitHub keeps one pending run per group: runs 2, 3, 5 … 9 are cancelled before they start.
    const runs = [0, 3, 9].map(i => pulls[i] as FakePull)
    let docsPr = ''
    for (const pull of runs) {
      // The events carry the head as it was when each pull request merged.
      const result = await runMerged(pull)
      expect(result.code).toBe(0)
      if (!docsPr) docsPull((docsPr = result.outputs.prLink as string), 'open')
      servers.runId++
    }
    const all = [...prompts('create'), ...prompts('message')].join('\n')
    for (let i = 1; i <= 10; i++) expect(all).toContain(`: Feature ${i}\n`)
    expect(sim.requests('create').length + sim.requests('message').length).toBeLessThanOrEqual(3)
    expect(ledgerOf()?.documented?.sha).toBe(pulls[9]?.mergeCommit)
  })

  it("a backlog beyond one run's 25 pull requests is taken over the next runs, oldest first, and the dashboard says how many wait", async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext({ title: 'First' }))
    // 30 merges whose runs were cancelled but the last.
    const pulls = Array.from({ length: 30 }, (_, i) => mergeNext({ title: `Feature ${i + 1}` }))
    servers.runId++
    const big = await runMerged(pulls[29] as FakePull, { inputs: { fold: 'never' } })
    expect(big.outputs.result).toBe('pr-opened')
    for (let i = 1; i <= 25; i++) expect(prompts()[1]).toContain(`: Feature ${i}\n`)
    for (let i = 26; i <= 30; i++) expect(prompts()[1]).not.toContain(`: Feature ${i}\n`)
    expect(ledgerOf()?.documented?.sha).toBe(pulls[24]?.mergeCommit)
    expect(ledgerOf()?.backlog).toBe(5)
    expect(dashboards()[0]?.body).toContain(
      "**Beyond one run's bounds**: 5 more changes after it wait"
    )
    // The run's own pull request, left for the next run, gets no comment of this job.
    expect(gh.commentsOn(pulls[29]?.number ?? 0)).toEqual([])
    servers.runId++
    const next = await runMerged(mergeNext({ title: 'Last' }), { inputs: { fold: 'never' } })
    expect(next.outputs.result).toBe('pr-opened')
    for (let i = 26; i <= 30; i++) expect(prompts()[2]).toContain(`: Feature ${i}\n`)
    expect(prompts()[2]).toContain(': Last\n')
    expect(prompts()[2]).not.toContain(': Feature 25\n')
    expect(ledgerOf()?.documented?.sha).toBe(gh.headOf(APP))
    expect(ledgerOf()?.backlog).toBeUndefined()
    expect(dashboards()[0]?.body).not.toContain("Beyond one run's bounds")
  })

  it('resumes the job of an earlier attempt on a re-run, sending nothing again, prompt input or not', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const pull = mergeNext()
    sim.planNext({ durationMs: 60_000 })
    const first = await runMerged(pull, { inputs: { timeout: '5s', prompt: 'Keep it short.' } })
    expect(first.outputs.result).toBe('timed-out')
    const again = await runMerged(pull, { attempt: 2, inputs: { prompt: 'Keep it short.' } })
    expect(again.outputs).toMatchObject({ jobId: first.outputs.jobId, result: 'pr-opened' })
    expect(sim.requests('create')).toHaveLength(1)
    expect(sim.requests('message')).toHaveLength(0)
    expect(again.log).toContain('resumes job')
  })
})

describe('secrets pasted into what the ledger and the prompt carry', () => {
  it('are written neither on the dashboard, in any escaped form, nor in its state, nor sent in the prompt', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const title = `Rotate ${SIM_API_KEY} and ${TOKEN}`
    const held = await runMerged(mergeNext({ title, body: `Old token: ${DOCS_TOKEN}` }), {
      inputs: { approval: 'dashboard', 'docs-token': DOCS_TOKEN }
    })
    expect(held.outputs.result).toBe('waiting')
    const body = dashboards()[0]?.body ?? ''
    const state = JSON.stringify(ledgerOf())
    for (const secret of [SIM_API_KEY, TOKEN, DOCS_TOKEN])
      for (const form of [secret, escapeMarkdown(secret), JSON.stringify(secret).slice(1, -1)]) {
        expect(body).not.toContain(form)
        expect(state).not.toContain(form)
      }
    // The state still reads as the action's own (its signature is over the redacted text).
    expect(ledgerOf()?.waiting?.changes[0]?.title).toBe('Rotate *** and ***')
    servers.runId++
    const started = await runMerged(mergeNext(), { inputs: { 'docs-token': DOCS_TOKEN } })
    expect(started.outputs.result).toBe('pr-opened')
    const [prompt = ''] = prompts()
    expect(prompt).toContain('Rotate *** and ***')
    for (const secret of [SIM_API_KEY, TOKEN, DOCS_TOKEN]) expect(prompt).not.toContain(secret)
  })
})

describe('control', () => {
  beforeEach(() => void gh.commitTo(APP, { message: 'Initial commit' }))

  it('dry-run: decides and shows the prompt, writes nothing anywhere', async () => {
    const result = await runMerged(mergeNext({ title: 'Add retries' }), {
      inputs: { 'dry-run': 'true' }
    })
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ result: 'dry-run', decision: 'new-job' })
    expect(result.outputs.prompt).toContain('Pull request #101 (merged): Add retries')
    // Only the check of the key and project, which spends nothing.
    expect(sim.exchanges.map(e => `${e.method} ${e.route}`)).toEqual(['GET list'])
    expect(gh.requests.filter(r => r.method !== 'GET' && !r.path.endsWith('/graphql'))).toEqual([])
    expect(result.summary).toContain('Dry run')
  })

  it('dry-run of a follow-up names the job, and of a skip says why', async () => {
    const first = await runMerged(mergeNext())
    docsPull(first.outputs.prLink as string, 'open')
    servers.runId++
    const follow = await runMerged(mergeNext(), { inputs: { 'dry-run': 'true' } })
    expect(follow.outputs).toMatchObject({ result: 'dry-run', decision: 'follow-up' })
    expect(follow.log).toContain(`send a follow-up to job ${first.outputs.jobId}`)
    expect(follow.summary).toContain(`job \`${first.outputs.jobId}\``)
    servers.runId++
    // The dry run moved nothing: #102 is still to document, so a real run takes it now.
    await runMerged(mergeNext({ title: 'Label me' }))
    servers.runId++
    const skip = await runMerged(mergeNext({ labels: ['no-docs'] }), {
      inputs: { 'dry-run': 'true' }
    })
    expect(skip.outputs).toMatchObject({ result: 'dry-run', decision: 'skip' })
    expect(skip.summary).toContain('no-docs')
    expect(sim.requests('message')).toHaveLength(1)
  })

  it('paths: a change with no file that counts is skipped by name, and the last documented commit moves past it', async () => {
    const docsOnly = mergeNext({ title: 'Tidy tests', files: [{ filename: 'test/a.test.ts' }] })
    const result = await runMerged(docsOnly, { inputs: { paths: 'src/**' } })
    expect(result.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(result.log).toContain("#101 changes no file that 'paths' and 'paths-ignore' count")
    expect(sim.requests('create')).toHaveLength(0)
    expect(ledgerOf()?.documented?.sha).toBe(docsOnly.mergeCommit)
    expect(dashboards()[0]?.body).toContain('#101 changes no file')
  })

  it("a run whose own pull request a rule skipped puts its job's comment on none of them", async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext({ title: 'One' }))
    expect(gh.commentsOn(101)).not.toEqual([])
    servers.runId++
    // Two's run was cancelled; Three is labelled no-docs, and its run hands Two over.
    mergeNext({ title: 'Two' })
    const three = mergeNext({ title: 'Three', labels: ['no-docs'] })
    const result = await runMerged(three, { inputs: { fold: 'never' } })
    expect(result.outputs.result).toBe('pr-opened')
    expect(prompts()[1]).toContain(': Two')
    expect(prompts()[1]).not.toContain(': Three')
    expect(gh.commentsOn(three.number)).toEqual([])
  })

  it('paths-ignore: the run that hands the rest over names what it left out on the dashboard', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext({ title: 'Add retries' }))
    servers.runId++
    mergeNext({ title: 'Add backoff' })
    const readme = mergeNext({ title: 'Fix a typo', files: [{ filename: 'README.md' }] })
    const result = await runMerged(readme, { inputs: { 'paths-ignore': '*.md' } })
    expect(result.outputs.result).toBe('pr-opened')
    expect(prompts('create').at(-1) ?? prompts('message').at(-1)).toContain('Add backoff')
    const last = ledgerOf()?.runs.at(-1)
    expect(last).toMatchObject({ changes: 1 })
    expect(last?.note).toMatch(
      /^left out: #103 changes no file that .paths. and .paths-ignore. count/
    )
    expect(dashboards()[0]?.body).toContain('left out: \\#\u200B103')
  })

  it("never documents the docs agent's own changes, even when allowed-bots lists it", async () => {
    const own = mergeNext({ user: { login: 'mintlify[bot]', type: 'Bot' } })
    const result = await runMerged(own, { inputs: { 'allowed-bots': 'mintlify, dependabot' } })
    expect(result.outputs.result).toBe('skipped')
    expect(result.log).toContain('the docs agent itself')
    expect(sim.requests('create')).toHaveLength(0)
  })

  it('max-jobs: over budget the changes wait on the dashboard, and the next run after the window takes them', async () => {
    const first = await runMerged(mergeNext({ title: 'One' }), {
      inputs: { 'max-jobs': '1/day', fold: 'never' }
    })
    expect(first.outputs.result).toBe('pr-opened')
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Two' }), {
      inputs: { 'max-jobs': '1/day', fold: 'never' }
    })
    expect(second.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(second.log).toMatch(
      /Over budget: 1 jobs and follow-ups in the window of 'max-jobs: 1\/day'; the next one frees at \d{4}-\d\d-\d\d \d\d:\d\d UTC/
    )
    expect(sim.requests('create')).toHaveLength(1)
    expect(ledgerOf()?.documented?.sha).not.toBe(gh.headOf(APP))
    expect(dashboards()[0]?.body).toContain('#### Waiting: 1 change')
    await clock.sleep(25 * 3_600_000)
    servers.runId++
    const third = await runMerged(mergeNext({ title: 'Three' }), {
      inputs: { 'max-jobs': '1/day', fold: 'never' }
    })
    expect(third.outputs.result).toBe('pr-opened')
    expect(prompts()[1]).toContain(': Two')
    expect(prompts()[1]).toContain(': Three')
    expect(ledgerOf()?.waiting).toBeNull()
  })
  it('max-credits: the estimated credits of a month hold the batch once the next start would pass them; the summary says what each run cost', async () => {
    const policy = { 'max-credits': '9000', 'credits-per-run': '5000', fold: 'never' }
    const first = await runMerged(mergeNext({ title: 'One' }), { inputs: policy })
    expect(first.outputs.result).toBe('pr-opened')
    expect(first.summary).toContain(
      'Estimated cost: This run started a new job: about 5,000 credits'
    )
    expect(first.summary).toContain(
      'Budget before this run: about 0 credits of 9,000 used in the last 30 days \\(max-credits: 9000\\), room for 1 more start.'
    )
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Two' }), { inputs: policy })
    expect(second.outputs.result).toBe('skipped')
    expect(second.log).toContain(
      "Over budget: 1 jobs and follow-ups, about 5,000 credits at 5,000 a run (an estimate), in the window of 'max-credits: 9000'"
    )
    expect(second.summary).not.toContain('Estimated cost')
    expect(sim.requests('create')).toHaveLength(1)
    // A month on, the window has room again: the waiting change goes with the next one.
    await clock.sleep(31 * 86_400_000)
    servers.runId++
    const third = await runMerged(mergeNext({ title: 'Three' }), { inputs: policy })
    expect(third.outputs.result).toBe('pr-opened')
    expect(prompts()[1]).toContain(': Two')
  })

  it('max-jobs counts a month: 1/month holds the second start for 30 days', async () => {
    const policy = { 'max-jobs': '1/month', fold: 'never' }
    await runMerged(mergeNext({ title: 'One' }), { inputs: policy })
    await clock.sleep(20 * 86_400_000)
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Two' }), { inputs: policy })
    expect(second.log).toContain("in the window of 'max-jobs: 1/month'")
    await clock.sleep(11 * 86_400_000)
    servers.runId++
    const third = await runMerged(mergeNext({ title: 'Three' }), { inputs: policy })
    expect(third.outputs.result).toBe('pr-opened')
  })
})

describe('issue runs and the ledger', () => {
  const labelled = labelledIssue()
  const onIssue = (inputs: Record<string, string> = {}) =>
    run({ eventName: 'issues', event: labelled, inputs })
  beforeEach(() => {
    gh.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
    gh.commitTo(APP, { message: 'Initial commit' })
  })

  it('with max-jobs, counts the job an issue started, so a change run over the budget waits', async () => {
    const issue = await onIssue({ 'max-jobs': '1/day' })
    expectCountedOnce(issue, 'from issue #7')
    // The dashboard it opened to count the job says so, as a change run's would.
    expect(issue.log).toMatch(
      /::notice title=Mintlify agent::No docs agent dashboard was found .* is opened with an empty ledger/
    )
    // Issue jobs are never folded into.
    expect(ledgerOf()?.jobs).toEqual([])
    servers.runId++
    const change = await runMerged(mergeNext(), { inputs: { 'max-jobs': '1/day' } })
    expect(change.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(change.log).toContain('Over budget')
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('never holds back an issue over the budget: a person asked, and the job counts', async () => {
    await runMerged(mergeNext(), { inputs: { 'max-jobs': '1/day' } })
    servers.runId++
    const issue = await onIssue({ 'max-jobs': '1/day' })
    expect(issue.outputs.result).toBe('pr-opened')
    expect(sim.requests('create')).toHaveLength(2)
    expect(ledgerOf()?.spend).toHaveLength(2)
  })

  it('costs at most 7 GitHub requests on an issue with 10,000 comments, and still finds its own job', async () => {
    const people = { login: 'someone', type: 'User' as const }
    for (let i = 0; i < 10_000; i++) gh.addComment(7, `Comment ${i}`, people)
    gh.requests.length = 0
    const first = await onIssue()
    expect(first.outputs.result).toBe('pr-opened')
    // The policy file, the permission, the first and the last page of comments, the comment (posted
    // before the job, to know the run can comment), its edit with the job and its last edit.
    const comment = `PATCH /repos/acme/app/issues/comments/${gh.commentsOn(7).at(-1)?.id}`
    expect(gh.requests.map(r => `${r.method} ${r.path} ${r.query.page ?? ''}`.trim())).toEqual([
      'GET /repos/acme/app/contents/.github%2Fdocs-agent.yml',
      'GET /repos/acme/app/collaborators/maintainer/permission',
      'GET /repos/acme/app/issues/7/comments 1',
      'GET /repos/acme/app/issues/7/comments 100',
      'POST /repos/acme/app/issues/7/comments',
      comment,
      comment
    ])
    // Labelled again after 50 more comments: the action's comment is on the last page, and its job
    // is found (its docs pull request is read, then a new job starts, as it is not open).
    for (let i = 0; i < 50; i++) gh.addComment(7, `Later ${i}`, people)
    servers.runId++
    gh.requests.length = 0
    const again = await onIssue()
    expect(
      gh.requests.filter(r => r.path.endsWith('/issues/7/comments')).length
    ).toBeLessThanOrEqual(3)
    expect(again.log).toContain(`of job ${first.outputs.jobId}, recorded on #7`)
  })

  it('without max-jobs, an issue run leaves the dashboard alone', async () => {
    await onIssue()
    expect(dashboards()).toHaveLength(0)
    expect(gh.requests.some(r => r.path.endsWith('/issues') && r.method === 'GET')).toBe(false)
  })

  it('counts nothing, and goes on, when the dashboard cannot be written', async () => {
    gh.failures.set('create-issue', 403)
    const issue = await onIssue({ 'max-jobs': '5/day' })
    expect(issue.code).toBe(0)
    expect(issue.outputs.result).toBe('pr-opened')
    expect(issue.log).toMatch(
      /::warning::The dashboard could not count this run's job against 'max-jobs': Could not write the docs agent dashboard issue \(HTTP 403\)/
    )
  })

  it('dry-run: no job, no comment, no dashboard; the decision and the exact prompt in the summary', async () => {
    const issue = await onIssue({ 'dry-run': 'true', 'max-jobs': '5/day' })
    expect(issue.code).toBe(0)
    expect(issue.outputs).toMatchObject({ result: 'dry-run', decision: 'new-job' })
    expect(issue.outputs.prompt).toContain('Document the retry options')
    expect(sim.exchanges.map(e => `${e.method} ${e.route}`)).toEqual(['GET list'])
    expect(gh.comments).toHaveLength(0)
    expect(dashboards()).toHaveLength(0)
    expect(gh.requests.filter(r => r.method !== 'GET' && r.path !== '/graphql')).toEqual([])
    expect(issue.summary).toContain('The prompt it would send')
  })
})

describe('faults', () => {
  beforeEach(() => void gh.commitTo(APP, { message: 'Initial commit' }))

  it('stops before starting anything when the dashboard cannot be written, naming issues: write', async () => {
    gh.failures.set('create-issue', 403)
    const result = await runMerged(mergeNext())
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not write the docs agent dashboard issue \(HTTP 403\).*'issues: write'/
    )
    expect(sim.exchanges).toHaveLength(0)
  })

  it('with Issues turned off (410), says to turn them on, never to grant issues: write', async () => {
    gh.issuesOff.add(APP)
    const result = await runMerged(mergeNext())
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not write the docs agent dashboard issue \(HTTP 410\), which records what was handed to the agent, so nothing was started\. Issues are turned off in acme\/app, where the dashboard keeps the ledger: turn them on in its settings \(Settings → General → Features → Issues\), or set 'dashboard: false' to run every change as its own job without a record\./
    )
    expect(result.log).not.toContain('issues: write')
    expect(sim.exchanges).toHaveLength(0)
  })

  it("never offers 'dashboard: false' to a policy with a limit only the dashboard holds, which would refuse it", async () => {
    gh.issuesOff.add(APP)
    const result = await runMerged(mergeNext(), { inputs: { 'max-open': '1' } })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not write the docs agent dashboard issue \(HTTP 410\), which records what was handed to the agent, so nothing was started\. Issues are turned off in acme\/app, where the dashboard keeps the ledger: turn them on in its settings \(Settings → General → Features → Issues\)\.$/m
    )
    expect(result.log).not.toContain('dashboard: false')
    expect(sim.exchanges).toHaveLength(0)
  })

  it.each([
    ['a GraphQL 502', () => gh.failures.set('graphql', 502), 'HTTP 502'],
    [
      'an answer of 200 holding only errors',
      () =>
        gh.graphqlErrors.set('graphql', {
          errors: [{ message: 'Something went wrong while executing your query.' }],
          times: 10
        }),
      "GitHub's GraphQL API answered with errors only: Something went wrong while executing your query."
    ]
  ])(
    'names an outage as an outage (%s): no HTTP 500, no permission to grant',
    async (_, fail, why) => {
      fail()
      const result = await runMerged(mergeNext())
      expect(result.code).toBe(1)
      expect(result.log).toContain(
        `::error::Could not read the docs agent dashboard issue (${why}), which records what was handed to the agent, so nothing was started. GitHub did not answer or failed, which no permission changes: run the workflow again later`
      )
      expect(result.log).not.toMatch(/HTTP 500|issues: write|dashboard: false/)
      expect(sim.exchanges).toHaveLength(0)
    }
  )

  it('goes on with the labelled dashboard when the search by author and title fails, saying so', async () => {
    const first = await runMerged(mergeNext({ title: 'One' }))
    expect(first.code).toBe(0)
    servers.runId++
    gh.failures.set('search', 502)
    const second = await runMerged(mergeNext({ title: 'Two' }))
    expect(second.code).toBe(0)
    expect(second.log).toMatch(
      /::notice[^:]*::Could not search acme\/app for the dashboard by its author and title \(HTTP 502\): the labelled dashboard https:\/\/github\.com\/acme\/app\/issues\/\d+ is used\./
    )
    expect(dashboards()).toHaveLength(1)
    expect(ledgerOf()?.jobs.flatMap(j => j.changes.map(c => c.title))).toContain('Two')
  })

  it('stops when the search fails and no labelled dashboard is found: it may be one whose label was taken off', async () => {
    gh.failures.set('search', 502)
    const result = await runMerged(mergeNext())
    expect(result.code).toBe(1)
    expect(result.log).toContain(
      '::error::Could not read the docs agent dashboard issue (HTTP 502), which records what was handed to the agent, so nothing was started. GitHub did not answer or failed'
    )
    expect(dashboards()).toHaveLength(0)
  })

  it('finds a dashboard just opened although the search has not indexed it yet: one dashboard', async () => {
    gh.searchLagMs = 3_600_000
    await runMerged(mergeNext({ title: 'One' }))
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Two' }))
    expect(second.code).toBe(0)
    expect(dashboards()).toHaveLength(1)
    expect(ledgerOf()?.jobs.flatMap(j => j.changes.map(c => c.title))).toEqual(['One', 'Two'])
  })

  it("waits out GitHub's secondary rate limit on a dashboard edit, as its retry-after asks, and goes on", async () => {
    const first = await runMerged(mergeNext({ title: 'One' }))
    expect(first.outputs.result).toBe('pr-opened')
    servers.runId++
    const edits = () =>
      gh.requests.filter(r => r.method === 'PATCH' && /\/issues\/\d+$/.test(r.path))
    const before = edits().length
    gh.failures.set('update-issue', { status: 403, times: 1, retryAfter: 90 })
    const paused = clock.pauses.length
    const second = await runMerged(mergeNext({ title: 'Two' }))
    expect(second.log).not.toContain('::error::')
    expect(second.code).toBe(0)
    // The refused edit, then the same edit after the wait, on the run's clock.
    expect(edits()[before]?.status).toBe(403)
    expect(edits()[before + 1]?.body).toEqual(edits()[before]?.body)
    expect(edits()[before + 1]?.status).toBe(200)
    expect(clock.pauses.slice(paused)).toContain(90_000)
    expect(ledgerOf()?.jobs.flatMap(j => j.changes.map(c => c.title))).toContain('Two')
  })

  it('fails with what GitHub asked when its rate limit would outlast the time limit, without waiting', async () => {
    await runMerged(mergeNext({ title: 'One' }))
    servers.runId++
    gh.failures.set('update-issue', { status: 429, times: 5, retryAfter: 3600 })
    const paused = clock.pauses.length
    const result = await runMerged(mergeNext({ title: 'Two' }), { inputs: { timeout: '10m' } })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not write the docs agent dashboard issue, so nothing was started: GitHub's secondary rate limit stopped PATCH \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}, asking to wait 1h: past the step's time limit \('timeout', 10m left\)\. Run the workflow again later, or raise 'timeout'\.$/m
    )
    expect(result.log).not.toContain('issues: write')
    // Asked once, not retried by the retry plugin as a 429 either, and no hour waited.
    expect(gh.requests.filter(r => r.status === 429)).toHaveLength(1)
    expect(clock.waitedSince(paused)).toBeLessThan(60_000)
    expect(sim.requests('create')).toHaveLength(1)
    expect(sim.requests('message')).toHaveLength(0)
  })

  it('a create whose answer never came is shown as uncertain and never sent again by itself', async () => {
    sim.inject({ route: 'create', kind: 'drop' })
    const first = await runMerged(mergeNext({ title: 'One' }))
    expect(first.code).toBe(1)
    expect(ledgerOf()?.uncertain).toEqual([expect.objectContaining({ what: 'new-job' })])
    expect(dashboards()[0]?.body).toContain('#### Uncertain')
    servers.runId++
    await runMerged(mergeNext({ title: 'Two' }))
    expect(prompts()).toHaveLength(2)
    expect(prompts()[1]).toContain(': Two')
    expect(prompts()[1]).not.toContain(': One')
  })

  it('a create answered 500 is uncertain with a box: a writer ticks it and its changes are sent again, once', async () => {
    gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
    sim.inject({ route: 'create', kind: 'status', status: 500, body: { error: 'internal' } })
    const first = await runMerged(mergeNext({ title: 'One' }))
    expect(first.code).toBe(1)
    const documented = ledgerOf()?.documented?.sha
    const id = ledgerOf()?.uncertain[0]?.id ?? ''
    expect(id).toMatch(/^[a-z0-9]+$/)
    const dashboard = dashboards()[0] as FakeIssue
    expect(dashboard.body).toContain('HTTP 500')
    expect(dashboard.body).toContain(`- [ ] Send these changes again (uncertain \`${id}\`)`)
    // alice ticks the box: GitHub sends the edit with the body before it.
    const tick = tickResend(dashboard, 'alice')
    servers.runId++
    const resent = await tick()
    expect(resent.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(prompts()).toHaveLength(2)
    expect(prompts()[1]).toContain(': One')
    expect(ledgerOf()?.uncertain).toEqual([])
    expect(ledgerOf()?.documented?.sha).toBe(documented)
    expect(dashboards()[0]?.body).not.toContain('Send these changes again')
    // The same tick delivered again sends nothing: the entry is gone.
    servers.runId++
    await tick()
    expect(sim.requests('create')).toHaveLength(2)
  })

  it("a reader ticking an uncertain request's box sends nothing: the box is unticked, the entry stays", async () => {
    gh.permissions.set('rita', { permission: 'read', role_name: 'read' })
    sim.inject({ route: 'create', kind: 'status', status: 502, body: { error: 'bad gateway' } })
    await runMerged(mergeNext({ title: 'One' }))
    const tick = tickResend(dashboards()[0] as FakeIssue, 'rita')
    servers.runId++
    const refused = await tick()
    expect(refused.code).toBe(0)
    expect(refused.log).toContain("@rita ticked 'Send these changes again'")
    expect(sim.requests('create')).toHaveLength(1)
    expect(ledgerOf()?.uncertain).toHaveLength(1)
    expect(dashboards()[0]?.body).toContain('- [ ] Send these changes again')
  })

  it('a create the service refused leaves the changes for the next run', async () => {
    sim.inject({ route: 'create', kind: 'status', status: 400, body: { error: 'bad request' } })
    const first = await runMerged(mergeNext({ title: 'One' }))
    expect(first.code).toBe(1)
    expect(ledgerOf()).toBeUndefined()
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Two' }))
    expect(second.outputs.result).toBe('pr-opened')
  })

  it('reopens a dashboard closed by hand, with its state and a notice', async () => {
    await runMerged(mergeNext())
    const dashboard = dashboards()[0] as FakeIssue
    dashboard.state = 'closed'
    servers.runId++
    const next = await runMerged(mergeNext(), { inputs: { fold: 'never' } })
    expect(next.log).toContain('was closed; it is reopened with its state')
    expect(dashboard.state).toBe('open')
    expect(dashboards()).toHaveLength(1)
    expect(ledgerOf()?.jobs).toHaveLength(2)
  })

  it("starts afresh from the event's own change when the state was edited by hand, never two jobs for one change", async () => {
    const first = mergeNext({ title: 'One' })
    await runMerged(first)
    const dashboard = dashboards()[0] as FakeIssue
    dashboard.body = dashboard.body.replace(/"title":"One"/, '"title":"Evil"')
    servers.runId++
    const second = await runMerged(mergeNext({ title: 'Two' }))
    expect(second.log).toContain('holds no state this action wrote with this API key')
    expect(prompts()[1]).toContain(': Two')
    expect(prompts()[1]).not.toContain(': One')
    expect(dashboards()).toHaveLength(1)
  })

  it('keeps one state per project in one dashboard', async () => {
    const pull = mergeNext()
    await runMerged(pull)
    servers.runId++
    const other = await runMerged(pull, { inputs: { 'project-id': 'proj_other' } })
    expect(other.outputs.result).toBe('pr-opened')
    const dashboard = dashboards()[0]
    const read = readDashboardState(dashboard?.body ?? '', signer, APP, dashboard?.number ?? 0)
    expect(read.ok && Object.keys(read.ledger.projects).sort()).toEqual(['proj_other', 'proj_sim'])
  })
})

describe('changes: since-last', () => {
  const dispatch = (r: ChangeRun = {}) =>
    run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      ...r,
      inputs: { changes: 'since-last', ...r.inputs }
    })

  it('on an empty ledger records the branch head as documented and starts nothing', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    mergeNext()
    const result = await dispatch()
    expect(result.outputs).toMatchObject({ result: 'skipped' })
    expect(result.log).toContain('is recorded as documented, and nothing is started')
    expect(sim.exchanges).toHaveLength(0)
    expect(ledgerOf()?.documented?.sha).toBe(gh.headOf(APP))
  })

  it('then catches up with everything merged since, in one job', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await dispatch()
    mergeNext({ title: 'One' })
    gh.commitTo(APP, {
      message: 'Fix a typo\n\nStraight to main.',
      author: { login: 'maintainer' },
      files: [{ filename: 'src/typo.ts' }]
    })
    mergeNext({ title: 'Two' })
    servers.runId++
    const result = await dispatch()
    expect(result.outputs.result).toBe('pr-opened')
    const [prompt = ''] = prompts()
    expect(prompt).toContain('(2 pull requests and 1 commit)')
    expect(prompt).toContain(': One')
    expect(prompt).toContain('Fix a typo')
    expect(prompt).toContain(': Two')
    servers.runId++
    const nothing = await dispatch()
    expect(nothing.log).toContain('is documented already')
  })
})

describe('pushes to the default branch', () => {
  const pushEvent = (before: string, after: string, over: Record<string, unknown> = {}) => ({
    ref: 'refs/heads/main',
    before,
    after,
    repository,
    pusher: { name: 'maintainer' },
    sender: { login: 'maintainer', type: 'User' },
    ...over
  })
  const runPush = (event: unknown, r: ChangeRun = {}) => run({ eventName: 'push', event, ...r })

  it('documents the pushed commits, then catches up from the last documented one', async () => {
    const base = gh.commitTo(APP, { message: 'Initial commit' })
    const one = gh.commitTo(APP, {
      message: 'Rename --follow to --watch',
      author: { login: 'alice' },
      files: [{ filename: 'src/cli.ts' }]
    })
    const first = await runPush(pushEvent(base.sha, one.sha))
    expect(first.outputs.result).toBe('pr-opened')
    expect(prompts()[0]).toContain('Rename --follow to --watch')
    const two = gh.commitTo(APP, {
      message: 'Add --quiet',
      author: { login: 'alice' },
      files: [{ filename: 'src/cli.ts' }]
    })
    servers.runId++
    // A push event whose `before` is older than the last documented commit: the ledger decides.
    await runPush(pushEvent(base.sha, two.sha), { inputs: { fold: 'never' } })
    expect(prompts()[1]).toContain('Add --quiet')
    expect(prompts()[1]).not.toContain('--watch')
  })

  it('starts from the push itself when a force-push rewrote history past the last documented commit', async () => {
    const base = gh.commitTo(APP, { message: 'Initial commit' })
    const gone = gh.commitTo(APP, {
      message: 'Soon rewritten',
      author: { login: 'alice' },
      files: [{ filename: 'src/cli.ts' }]
    })
    await runPush(pushEvent(base.sha, gone.sha))
    // The branch is rewritten: `gone` is no longer on it.
    gh.branches.set(`${APP}:main`, [base.sha])
    const again = gh.commitTo(APP, {
      message: 'Rewritten',
      author: { login: 'alice' },
      files: [{ filename: 'src/cli.ts' }]
    })
    servers.runId++
    const result = await runPush(pushEvent(gone.sha, again.sha, { forced: true }), {
      inputs: { fold: 'never' }
    })
    expect(result.log).toContain('a force-push rewrote its history')
    expect(prompts()[1]).toContain('Rewritten')
  })

  it('tells a history rewritten without a push event from a long one: a merge after an unseen force-push documents itself only', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    const base = gh.headOf(APP)
    await runMerged(mergeNext({ title: 'One' }))
    // A force-push no workflow saw resets the branch; a pull request merges on top.
    gh.branches.set(`${APP}:main`, [base])
    servers.runId++
    const result = await runMerged(mergeNext({ title: 'Two' }), { inputs: { fold: 'never' } })
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.log).toContain(
      'the history was rewritten, by a force-push this action did not see'
    )
    expect(result.log).toContain('GitHub compares them as diverged')
    expect(prompts()[1]).toContain(': Two')
    expect(prompts()[1]).not.toContain('Initial commit')
    expect(ledgerOf()?.documented?.sha).toBe(gh.headOf(APP))
  })

  it('a long history is not taken for a rewritten one: the comparison says ahead', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext({ title: 'One' }))
    // Beyond the 1,000 commits read back: GitHub's comparison is asked.
    for (let i = 0; i < 1001; i++) gh.commitTo(APP, { message: `Direct ${i}` })
    servers.runId++
    const result = await runMerged(mergeNext({ title: 'Two' }), { inputs: { fold: 'never' } })
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.log).not.toContain('the history was rewritten')
    expect(gh.requests.some(r => r.path.includes('/compare/'))).toBe(true)
  })

  it('skips a push that moved the branch back: nothing between the commits', async () => {
    const base = gh.commitTo(APP, { message: 'Initial commit' })
    const moved = pushEvent('1'.repeat(40), base.sha, { forced: true, commits: [] })
    const result = await runPush(moved)
    expect(result.outputs.result).toBe('skipped')
    expect(result.log).toContain('holds no new commit')
    expect(gh.requests).toHaveLength(0)
    expect(sim.exchanges).toHaveLength(0)
  })
})

describe('what a batch tells its sources', () => {
  it("comments the docs pull request on the batch's other pull requests, a few at most", async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext())
    const caught = [mergeNext(), mergeNext(), mergeNext()]
    servers.runId++
    const result = await runMerged(caught[2] as FakePull, { inputs: { fold: 'never' } })
    expect(result.outputs.result).toBe('pr-opened')
    for (const pull of caught.slice(0, 2))
      expect(gh.commentsOn(pull.number)[0]?.body).toContain(
        `documented this change together with others in [${result.outputs.prLink}]`
      )
    // The event's own pull request has the live comment, not a second one.
    expect(gh.commentsOn(caught[2]?.number as number)).toHaveLength(1)
  })

  it("never documents the agent's own docs pull request merged into this repository", async () => {
    // Docs kept in the code repository: the agent's docs pull requests are merged into it.
    const DOCS = 'acme/docs'
    const env = { GITHUB_REPOSITORY: DOCS }
    const merge = (pull: FakePull) => {
      gh.addPull(DOCS, pull)
      gh.mergePull(DOCS, pull)
      return {
        action: 'closed',
        number: pull.number,
        pull_request: { ...gh.pullView(DOCS, pull.number), merge_commit_sha: pull.mergeCommit },
        repository: { full_name: DOCS, default_branch: 'main' },
        sender: { login: 'maintainer', type: 'User' }
      }
    }
    gh.commitTo(DOCS, { message: 'Initial commit' })
    const first = await run({ event: merge({ number: 7, title: 'Add retries' }), env })
    const docsPr = Number(String(first.outputs.prLink).split('/').pop())
    servers.runId++
    const loop = await run({
      event: merge({
        number: docsPr,
        title: 'Document retries',
        user: { login: 'alice', type: 'User' }
      }),
      env
    })
    expect(loop.outputs.result).toBe('skipped')
    expect(loop.log).toContain('is a docs pull request the agent opened')
    expect(sim.requests('create')).toHaveLength(1)
  })
})

describe('changes run on their own and max-jobs', () => {
  const budget = { 'max-jobs': '1/day', fold: 'never' }
  beforeEach(() => {
    gh.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
    gh.commitTo(APP, { message: 'Initial commit' })
  })
  const open = (): FakePull =>
    gh.addPull(APP, {
      number: 300,
      title: 'Open one',
      body: 'Adds retries.',
      files: [{ filename: 'src/retry.ts', additions: 3 }]
    } as FakePull)
  const onOpen = (pull: FakePull, action: string, inputs: Record<string, string> = budget) => {
    servers.runId++
    return run({ event: servers.merged(pull, action, repository), inputs })
  }

  it('a pull request not merged yet is held back over max-jobs, and its jobs count', async () => {
    const pull = open()
    expectCountedOnce(await onOpen(pull, 'opened'), 'from pull request #300')
    for (const action of ['synchronize', 'synchronize']) {
      const again = await onOpen(pull, action)
      expect(again.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
      expect(again.log).toContain('Over budget')
      expect(again.log).toContain(
        "Nothing starts for pull request #300, which runs on its own, outside the dashboard's batch"
      )
    }
    // A merge over the same budget waits on the dashboard as before.
    servers.runId++
    const merged = await runMerged(mergeNext(), { inputs: budget })
    expect(merged.outputs.result).toBe('skipped')
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('stops, starting nothing, when the dashboard cannot count it; without max-jobs it leaves the dashboard alone', async () => {
    gh.failures.set('create-issue', 403)
    const pull = open()
    const refused = await onOpen(pull, 'opened')
    expect(refused.code).toBe(1)
    expect(refused.log).toMatch(
      /::error::Could not write the docs agent dashboard issue \(HTTP 403\).* With 'max-jobs', pull request #300 starts a job only once the dashboard can count it\./
    )
    expect(sim.requests('create')).toHaveLength(0)
    gh.failures.delete('create-issue')
    const free = await onOpen(pull, 'synchronize', { fold: 'never' })
    expect(free.outputs.result).toBe('pr-opened')
    expect(dashboards()).toHaveLength(0)
  })
})

/**
 * The dashboard's requests: the REST issues routes by method, and GraphQL's search for it (the
 * labelled issues with who the token is, or the action's own issues of its title) as FIND.
 */
const dashboardCalls = (requests: FakeGitHub['requests']): string[] =>
  requests.flatMap(r => {
    if (/\/issues(\/\d+)?$/.test(r.path)) return [r.method]
    const query = (r.body as { query?: unknown } | undefined)?.query
    return typeof query === 'string' && /issues\(labels|search\(/.test(query) ? ['FIND'] : []
  })

describe('what the ledger costs in GitHub requests', () => {
  it('finds, checks and writes the dashboard in 8 requests a run that starts a job, whatever the repository holds', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    for (let i = 0; i < 300; i++)
      gh.addComment(1 + (i % 7), `noise ${i}`, { login: 'u', type: 'User' })
    await runMerged(mergeNext())
    const ledgerCalls = () => dashboardCalls(gh.requests)
    // Find (the labelled issues, and the action's own of the dashboard's title: a label can be
    // moved by anyone with triage rights); check it can be written; record the job (read first,
    // then read back: an overlapping run's write is merged, never written over); record how the
    // run ended (read first). Three writes; the reads are not paced and create nothing.
    const oneRun = ['FIND', 'FIND', 'PATCH', 'GET', 'PATCH', 'GET', 'GET', 'PATCH']
    servers.runId++
    gh.requests.length = 0
    await runMerged(mergeNext(), { inputs: { fold: 'never' } })
    expect(ledgerCalls()).toEqual(oneRun)
    // The same after a long wait.
    servers.runId++
    gh.requests.length = 0
    sim.planNext({ durationMs: 120_000 })
    await runMerged(mergeNext(), { inputs: { fold: 'never' } })
    expect(ledgerCalls()).toEqual(oneRun)
    // Never a scan of the repository's comments.
    expect(gh.requests.filter(r => r.path.endsWith('/issues/comments'))).toEqual([])
  })

  it('sends its writes (comments, dashboard edits) a second apart, as GitHub asks, on the run’s clock', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext())
    servers.runId++
    gh.requests.length = 0
    const pauses = clock.pauses.length
    const started = performance.now()
    await runMerged(mergeNext(), { inputs: { fold: 'never' } })
    const writes = gh.requests.filter(r => r.method !== 'GET' && r.path !== '/graphql')
    expect(writes.length).toBeGreaterThanOrEqual(5)
    for (let i = 1; i < writes.length; i++)
      expect((writes[i]?.at ?? 0) - (writes[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(900)
    // Waited on the virtual clock, not in real time.
    expect(clock.pauses.slice(pauses).filter(ms => ms > 0 && ms <= 1000).length).toBeGreaterThan(0)
    expect(performance.now() - started).toBeLessThan(writes.length * 1000)
  })

  it('records a run that starts nothing in 4: a read, one write', async () => {
    gh.commitTo(APP, { message: 'Initial commit' })
    await runMerged(mergeNext())
    servers.runId++
    gh.requests.length = 0
    await runMerged(mergeNext({ labels: ['no-docs'] }))
    expect(dashboardCalls(gh.requests)).toEqual(['FIND', 'FIND', 'GET', 'PATCH'])
  })
})
