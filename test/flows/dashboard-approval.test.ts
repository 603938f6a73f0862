import { beforeEach, describe, expect, it } from 'vitest'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import type { Simulator } from '../simulator/server.js'
import { APP, type ChangeRun, CodeChangeServers, REPOSITORY } from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import type { RunResult } from '../support/run-action.js'
import { VirtualClock } from '../support/virtual-clock.js'

const DOCS = 'acme/docs'
const BOX = /^- \[ \] Start the agent for these changes \(batch `([a-z0-9]+)`\)$/m
const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
const suite = codeChangeSuite(clock, world => {
  servers = world
  ;({ sim, gh } = world)
})
beforeEach(() => {
  gh.permissions.set('alice', { permission: 'write', role_name: 'write' })
  gh.permissions.set('rita', { permission: 'read', role_name: 'read' })
})

const APPROVAL = { approval: 'dashboard' }
/** Every day of the week: quiet hours whatever the virtual clock says. */
const ALL_WEEK = 'sunday,monday,tuesday,wednesday,thursday,friday,saturday'
const run = (r: ChangeRun = {}): Promise<RunResult> =>
  suite.run({ ...r, inputs: { ...APPROVAL, ...r.inputs } })
/** The next merge's run. */
const runMerged = (inputs: Record<string, string> = {}, over: Partial<FakePull> = {}) =>
  run({ event: servers.mergedEvent(servers.mergeNext(over)), inputs })
const dashboard = (): FakeIssue => servers.dashboards()[0] as FakeIssue
const ledgerOf = () => servers.ledgerOf()
const creates = () => sim.requests('create')
const messages = () => sim.requests('message')

/** Someone clicks the waiting batch's box: GitHub writes the body with it ticked. */
function tick(): string {
  const issue = dashboard()
  const batch = BOX.exec(issue.body)?.[1]
  if (!batch) throw new Error('no unticked box on the dashboard')
  issue.body = issue.body.replace(BOX, m => m.replace('- [ ]', '- [x]'))
  return batch
}

/** The `issues` `edited` event of the dashboard, sent by `login`; `from` is what the payload claims. */
function edited(login: string, from = 'anything'): Record<string, unknown> {
  const issue = dashboard()
  return {
    action: 'edited',
    issue: gh.issueView(issue),
    changes: { body: { from } },
    repository: REPOSITORY,
    sender: { login, type: 'User' }
  }
}
const runTick = (login: string, r: ChangeRun = {}) =>
  run({ eventName: 'issues', event: edited(login), ...r })

describe('approval: dashboard', () => {
  it('a change run starts nothing: the batch waits with its checkbox, what it would do and the prompt size', async () => {
    const first = await runMerged()
    expect(first.code).toBe(0)
    expect(first.outputs).toMatchObject({ result: 'waiting', decision: 'skip' })
    expect(first.log).toContain("Awaiting approval ('approval: dashboard'): 1 change waits")
    expect(creates()).toHaveLength(0)
    expect(dashboard().body).toMatch(BOX)
    expect(dashboard().body).toMatch(
      /If started now, the run would start a new job with a prompt of [\d.]+ KB/
    )
    const waiting = ledgerOf()?.waiting
    expect(waiting?.changes.map(c => c.pr)).toEqual([101])
    expect(waiting?.wouldDo).toMatchObject({ decision: 'new-job' })
    expect(waiting?.wouldDo?.promptBytes).toBeGreaterThan(500)
    expect(first.summary).toContain('Waiting on the dashboard')
    // Later merges join the same batch, under the same box.
    const batch = waiting?.batch
    await runMerged()
    expect(ledgerOf()?.waiting).toMatchObject({ batch })
    expect(ledgerOf()?.waiting?.changes.map(c => c.pr)).toEqual([101, 102])
    expect(dashboard().body.match(/- \[ \] Start the agent for these changes/g)).toHaveLength(1)
    expect(creates()).toHaveLength(0)
  })

  it('a tick by a writer starts exactly one job for the whole batch and updates the dashboard', async () => {
    await runMerged()
    await runMerged()
    tick()
    const started = await runTick('alice')
    expect(started.code).toBe(0)
    expect(started.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(1)
    const prompt = (creates()[0]?.requestBody as { prompt: string }).prompt
    for (const n of [101, 102]) expect(prompt).toContain(`Pull request #${n} (merged)`)
    const ledger = ledgerOf()
    expect(ledger?.waiting).toBeNull()
    expect(ledger?.documented?.sha).toBe(gh.headOf(APP))
    expect(ledger?.jobs).toHaveLength(1)
    expect(ledger?.runs.at(-1)?.note).toBe('approved by @alice')
    expect(dashboard().body).not.toMatch(/- \[[ x]\] Start the agent/)
    // The permission was read from GitHub, for the sender of the event.
    expect(gh.requests.some(r => r.path.endsWith('/collaborators/alice/permission'))).toBe(true)
  })

  it('a tick by a reader is undone with a reply; the step succeeds and nothing starts', async () => {
    await runMerged()
    const batch = tick()
    const refused = await runTick('rita')
    expect(refused.code).toBe(0)
    expect(refused.outputs).toMatchObject({ result: 'skipped', decision: 'skip' })
    expect(refused.log).toContain(
      `@rita ticked 'Start the agent for these changes' for batch ${batch}, but @rita has 'read' permission`
    )
    expect(creates()).toHaveLength(0)
    expect(dashboard().body).toMatch(BOX)
    expect(dashboard().body).not.toContain('- [x]')
    const [reply] = gh.commentsOn(dashboard().number)
    expect(reply?.body).toMatch(/^⛔ \*\*Mintlify agent\*\*: @rita ticked/)
    expect(reply?.body).toContain('The box was unticked and nothing was started')
    expect(ledgerOf()?.waiting).toMatchObject({ batch })
    expect(ledgerOf()?.waiting?.approvedBy).toBeUndefined()
    expect(ledgerOf()?.runs.at(-1)).toMatchObject({ result: 'refused' })
    // A writer's tick afterwards starts it.
    tick()
    const started = await runTick('alice')
    expect(started.outputs.result).toBe('pr-opened')
    expect(creates()).toHaveLength(1)
  })

  it('ticked twice, re-delivered or re-run: nothing starts twice', async () => {
    await runMerged()
    const batch = tick()
    const event = edited('alice')
    const first = await run({ eventName: 'issues', event })
    expect(first.outputs.result).toBe('pr-opened')
    const tickRun = servers.runId
    // The same event delivered again: the box is gone, nothing is ticked.
    const redelivered = await run({ eventName: 'issues', event })
    expect(redelivered.outputs.result).toBe('skipped')
    expect(redelivered.log).toContain("no 'Start the agent for these changes' box is ticked")
    // A tick from a page still showing the started batch's box: it no longer waits.
    dashboard().body = dashboard().body.replace(
      '#### Last runs',
      `- [x] Start the agent for these changes (batch \`${batch}\`)\n\n#### Last runs`
    )
    const again = await runTick('alice')
    expect(again.code).toBe(0)
    expect(again.outputs.result).toBe('skipped')
    expect(again.log).toContain(
      `Not starting the agent: The ticked box names batch ${batch}, which no longer waits`
    )
    // A re-run of the tick's run resumes the job it started: nothing is sent.
    servers.runId = tickRun - 1
    const rerun = await run({ eventName: 'issues', event: edited('alice'), attempt: 2 })
    expect(rerun.outputs.jobId).toBe(first.outputs.jobId)
    expect(rerun.log).toContain('resumes job')
    expect(creates()).toHaveLength(1)
    expect(messages()).toHaveLength(0)
  })

  it('a tick made while another run is deciding is kept by its write, and the tick’s run starts the batch', async () => {
    await runMerged()
    // Alice ticks while the next merge's run reads the changes: after it read the dashboard, before it writes.
    let batch: string | undefined
    const stop = gh.onRequest(r => {
      if (batch === undefined && r.path.endsWith('/graphql')) batch = tick()
    })
    const during = await runMerged().finally(stop)
    expect(batch).toBeDefined()
    expect(during.outputs.result).toBe('waiting')
    expect(ledgerOf()?.waiting?.changes.map(c => c.pr)).toEqual([101, 102])
    expect(dashboard().body).toContain(
      `- [x] Start the agent for these changes (batch \`${batch}\`)`
    )
    // The tick's run, queued behind that one, finds the box ticked.
    const started = await runTick('alice')
    expect(started.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(1)
  })

  it('an edit that did not tick the box approves nothing: a tick already there is not its sender’s', async () => {
    await runMerged()
    tick()
    const ticked = dashboard().body
    // The next edit of the body (the action's own write with an app token, which allowed-bots lists,
    // or a person's edit elsewhere in the body): the box was ticked before it.
    const bot = await run({
      eventName: 'issues',
      event: { ...edited('helper[bot]', ticked), sender: { login: 'helper[bot]', type: 'Bot' } },
      inputs: { 'allowed-bots': 'helper' }
    })
    expect(bot.code).toBe(0)
    expect(bot.outputs.result).toBe('skipped')
    expect(bot.log).toContain('was ticked before this edit, which did not tick it')
    // A writer editing the title only.
    const title = await run({
      eventName: 'issues',
      event: { ...edited('alice'), changes: { title: { from: 'Docs dashboard' } } }
    })
    expect(title.outputs.result).toBe('skipped')
    expect(title.log).toContain('(it left the body alone)')
    expect(creates()).toHaveLength(0)
    expect(dashboard().body).toBe(ticked)
    // The edit that ticked it is judged on its own sender.
    const started = await runTick('alice')
    expect(started.outputs.result).toBe('pr-opened')
    expect(creates()).toHaveLength(1)
  })

  it('a permission GitHub cannot tell is a refusal: the tick is undone, nothing starts', async () => {
    await runMerged()
    tick()
    gh.failures.set('permission', 404)
    const refused = await runTick('alice')
    expect(refused.code).toBe(0)
    expect(refused.log).toContain("Could not read @alice's permission on the repository")
    expect(dashboard().body).toMatch(BOX)
    expect(gh.commentsOn(dashboard().number)).toHaveLength(1)
    expect(creates()).toHaveLength(0)
  })

  it('a bot not in allowed-bots cannot approve', async () => {
    await runMerged()
    tick()
    const bot = await run({
      eventName: 'issues',
      event: { ...edited('helper[bot]'), sender: { login: 'helper[bot]', type: 'Bot' } }
    })
    expect(bot.log).toContain("@helper[bot] is a bot, and 'allowed-bots' does not list it")
    expect(creates()).toHaveLength(0)
    expect(dashboard().body).toMatch(BOX)
  })

  it('the action’s own writes tick nothing; an edit of another issue or without a box does nothing', async () => {
    await runMerged()
    const own = await runTick('github-actions[bot]')
    expect(own.outputs.result).toBe('skipped')
    expect(own.log).toContain("no 'Start the agent for these changes' box is ticked")
    // Another issue carrying the label, with a ticked box for the waiting batch: not the dashboard.
    const batch = ledgerOf()?.waiting?.batch
    const copy: FakeIssue = {
      ...dashboard(),
      number: 900,
      body: `- [x] Start the agent for these changes (batch \`${batch}\`)`
    }
    gh.issues.set(900, copy)
    const other = await run({
      eventName: 'issues',
      event: { ...edited('alice'), issue: gh.issueView(copy) }
    })
    expect(other.outputs.result).toBe('skipped')
    expect(other.log).toContain('Issue #900 is not the dashboard this action keeps')
    expect(creates()).toHaveLength(0)
  })

  it('decides at tick time: the changes follow up on the job whose docs pull request opened since', async () => {
    const first = await run({
      event: servers.mergedEvent(servers.mergeNext()),
      inputs: { approval: 'none' }
    })
    expect(first.outputs.result).toBe('pr-opened')
    await runMerged()
    expect(ledgerOf()?.waiting?.wouldDo).toMatchObject({ decision: 'new-job' })
    // The job's docs pull request opens after the gate: the tick's run decides with it.
    gh.addPull(DOCS, {
      number: Number(String(first.outputs.prLink).split('/').pop()),
      state: 'open',
      merged: false,
      user: { login: 'mintlify[bot]', type: 'Bot' },
      createdAt: clock.wallNow()
    })
    tick()
    const started = await runTick('alice')
    expect(started.outputs).toMatchObject({ decision: 'follow-up', jobId: first.outputs.jobId })
    expect(creates()).toHaveLength(1)
    expect(messages()).toHaveLength(1)
  })

  it('an approved batch over max-jobs waits, says so, and a later run starts it once', async () => {
    const first = await run({
      event: servers.mergedEvent(servers.mergeNext()),
      inputs: { approval: 'none', 'max-jobs': '1/day', fold: 'never' }
    })
    expect(first.outputs.result).toBe('pr-opened')
    await runMerged({ 'max-jobs': '1/day', fold: 'never' })
    tick()
    const over = await runTick('alice', { inputs: { 'max-jobs': '1/day', fold: 'never' } })
    expect(over.code).toBe(0)
    expect(over.outputs.result).toBe('waiting')
    expect(over.log).toContain('Over budget')
    expect(ledgerOf()?.waiting?.approvedBy).toBe('alice')
    expect(dashboard().body).toContain('✅ Approved by @\u200Balice')
    expect(dashboard().body).not.toMatch(BOX)
    expect(creates()).toHaveLength(1)
    await clock.sleep(86_400_000)
    const later = await run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      inputs: { changes: 'since-last', 'max-jobs': '1/day', fold: 'never' }
    })
    expect(later.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(2)
    expect(ledgerOf()?.waiting).toBeNull()
  })

  it('an approved batch held by max-jobs keeps its tick: a merge meanwhile joins it without another, and the first run with room starts both', async () => {
    const limits = { 'max-jobs': '1/day', fold: 'never' }
    await run({
      event: servers.mergedEvent(servers.mergeNext()),
      inputs: { ...limits, approval: 'none' }
    })
    await runMerged(limits, { title: 'Add retries' })
    tick()
    expect((await runTick('alice', { inputs: limits })).outputs.result).toBe('waiting')
    const joined = await runMerged(limits, { title: 'Add backoff' })
    expect(joined.outputs.result).toBe('waiting')
    expect(joined.log).toContain('Over budget')
    expect(ledgerOf()?.waiting?.approvedBy).toBe('alice')
    expect(ledgerOf()?.waiting?.changes).toHaveLength(2)
    expect(dashboard().body).not.toMatch(BOX)
    await clock.sleep(86_400_000)
    const later = await runMerged(limits, { title: 'Add jitter' })
    expect(later.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(2)
    const prompt = (creates()[1]?.requestBody as { prompt: string }).prompt
    for (const title of ['Add retries', 'Add backoff', 'Add jitter'])
      expect(prompt).toContain(title)
    expect(ledgerOf()?.waiting).toBeNull()
  })

  it('an approved batch whose start is uncertain leaves no approval behind: the next merge waits for a tick', async () => {
    const limits = { 'max-jobs': '1/day', fold: 'never' }
    await run({
      event: servers.mergedEvent(servers.mergeNext()),
      inputs: { ...limits, approval: 'none' }
    })
    await runMerged(limits)
    tick()
    const over = await runTick('alice', { inputs: limits })
    expect(over.outputs.result).toBe('waiting')
    expect(ledgerOf()?.waiting?.approvedBy).toBe('alice')
    await clock.sleep(86_400_000)
    // The approved batch is sent, but the service's answer never comes.
    sim.inject({ route: 'create', kind: 'drop' })
    const lost = await run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      inputs: { ...limits, changes: 'since-last' }
    })
    expect(lost.code).toBe(1)
    expect(ledgerOf()?.uncertain).toHaveLength(1)
    // Those changes are handed over (uncertainly): nothing of them, nor alice's approval, waits.
    expect(ledgerOf()?.waiting).toBeNull()
    expect(dashboard().body).not.toContain('Approved by')
    await clock.sleep(86_400_000)
    const sent = creates().length
    const next = await runMerged(limits)
    expect(next.outputs.result).toBe('waiting')
    expect(creates()).toHaveLength(sent)
    expect(dashboard().body).toMatch(BOX)
  })

  it('an approved batch left with nothing to document ends its wait: the next merge waits for a tick', async () => {
    const limits = { 'max-jobs': '1/day', fold: 'never' }
    await run({
      event: servers.mergedEvent(servers.mergeNext()),
      inputs: { ...limits, approval: 'none' }
    })
    const waiting = servers.mergeNext()
    await run({ event: servers.mergedEvent(waiting), inputs: limits })
    tick()
    await runTick('alice', { inputs: limits })
    expect(ledgerOf()?.waiting?.approvedBy).toBe('alice')
    // After the approval, someone decides the change needs no docs.
    waiting.labels = ['no-docs']
    await clock.sleep(86_400_000)
    const nothing = await run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      inputs: { ...limits, changes: 'since-last' }
    })
    expect(nothing.outputs.result).toBe('skipped')
    expect(ledgerOf()?.documented?.sha).toBe(gh.headOf(APP))
    expect(ledgerOf()?.waiting).toBeNull()
    const sent = creates().length
    const next = await runMerged(limits)
    expect(next.outputs.result).toBe('waiting')
    expect(creates()).toHaveLength(sent)
  })

  it('without approval, changes left waiting by max-jobs are taken by a scheduled run at the same head', async () => {
    const budget = { approval: 'none', 'max-jobs': '1/day', fold: 'never' }
    await runMerged(budget)
    const over = await runMerged(budget)
    expect(over.outputs.result).toBe('skipped')
    await clock.sleep(86_400_000)
    const later = await run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      inputs: { ...budget, changes: 'since-last' }
    })
    expect(later.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(2)
  })

  it('quiet hours hold a merge’s batch on the dashboard; the first run after them starts it', async () => {
    const quiet = { approval: 'none', 'quiet-hours': `{days: [${ALL_WEEK}]}`, fold: 'never' }
    const held = await runMerged(quiet)
    expect(held.code).toBe(0)
    expect(held.outputs.result).toBe('skipped')
    expect(held.log).toContain(`Quiet hours (${ALL_WEEK.replace(/,/g, ', ')} UTC): 1 change waits`)
    await runMerged(quiet)
    expect(creates()).toHaveLength(0)
    expect(ledgerOf()?.waiting?.changes.map(c => c.pr)).toEqual([101, 102])
    // The hours end (the team changed its policy, or the clock moved past them): one job for both.
    const after = await runMerged({ approval: 'none', fold: 'never' })
    expect(after.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(1)
    const prompt = (creates()[0]?.requestBody as { prompt: string }).prompt
    for (const n of [101, 102, 103]) expect(prompt).toContain(`Pull request #${n} (merged)`)
  })

  it('within quiet hours a writer’s tick starts the batch: they asked for it now', async () => {
    const quiet = { 'quiet-hours': `{days: [${ALL_WEEK}], timezone: Europe/Berlin}` }
    const waiting = await runMerged(quiet)
    expect(waiting.log).toContain("Awaiting approval ('approval: dashboard')")
    tick()
    const started = await runTick('alice', { inputs: quiet })
    expect(started.outputs).toMatchObject({ result: 'pr-opened', decision: 'new-job' })
    expect(creates()).toHaveLength(1)
  })

  it('gates a scheduled since-last run too', async () => {
    await run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      inputs: { changes: 'since-last' }
    })
    servers.mergeNext()
    const gated = await run({
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      inputs: { changes: 'since-last' }
    })
    expect(gated.outputs.result).toBe('waiting')
    expect(creates()).toHaveLength(0)
    expect(dashboard().body).toMatch(BOX)
  })

  it('dry-run decides and writes nothing, on the change and on the tick', async () => {
    await runMerged()
    const body = dashboard().body
    const dry = await runMerged({ 'dry-run': 'true' })
    expect(dry.outputs.result).toBe('dry-run')
    expect(dashboard().body).toBe(body)
    tick()
    const ticked = dashboard().body
    const dryTick = await runTick('alice', { inputs: { 'dry-run': 'true' } })
    expect(dryTick.outputs).toMatchObject({ result: 'dry-run', decision: 'new-job' })
    expect(dashboard().body).toBe(ticked)
    expect(creates()).toHaveLength(0)
  })

  it('a preview with approval shows the prompt a tick would send and its credits, the budget on the dashboard', async () => {
    const dry = await runMerged({ 'dry-run': 'true', 'max-credits': '9000' })
    expect(dry.outputs).toMatchObject({ result: 'dry-run', decision: 'skip' })
    expect(dry.outputs.prompt).toContain('Pull request #101 (merged)')
    expect(dry.summary).toContain('the changes would wait for a tick on the dashboard')
    expect(dry.summary).toContain('The prompt a tick would send')
    expect(dry.summary).toContain(
      'Estimated cost: A tick on the dashboard would start a new job: about 180 credits'
    )
    expect(servers.dashboards()).toHaveLength(0)
    // Live, the box says what a tick costs and where the budget stands; the dashboard shows both limits.
    const held = await runMerged({
      'max-credits': '9000',
      'max-open': '1',
      'credits-per-run': '200'
    })
    expect(held.outputs.result).toBe('waiting')
    const body = dashboard().body
    expect(body).toContain('If started now, the run would start a new job with a prompt of')
    expect(body).toContain('about 200 credits (`credits-per-run`, an estimate)')
    expect(body).toContain(
      'Budget now: about 0 credits of 9,000 used in the last 30 days \\(max-credits: 9000\\), room for 45 more starts.'
    )
    expect(body).toContain('- **Open at once**: at most 1 docs pull request (`max-open: 1`')
    expect(held.summary).toContain(
      'A tick on the dashboard would start a new job: about 200 credits'
    )
  })

  it('with approval: none an edit of the dashboard is no request, as before', async () => {
    await runMerged()
    tick()
    const result = await runTick('alice', { inputs: { approval: 'none' } })
    expect(result.outputs.result).toBe('skipped')
    expect(result.log).toContain('An issues event is not a code change')
    expect(creates()).toHaveLength(0)
  })

  it('a bad approval in the policy file names the file, the line and the key', async () => {
    const bad = await runMerged({ approval: 'yes' })
    expect(bad.code).toBe(1)
    expect(bad.log).toMatch(
      /::error::.*\.github\/docs-agent\.yml:\d+:\d+: approval: must be one of/
    )
    const off = await runMerged({ dashboard: 'false' })
    expect(off.code).toBe(1)
    expect(off.log).toContain('approval: dashboard needs dashboard: true')
  })

  it('a held batch checks the key and project with a request that spends nothing, and says what it proved', async () => {
    const held = await runMerged()
    expect(held.outputs.result).toBe('waiting')
    expect(sim.requests('list')).toHaveLength(1)
    expect(creates()).toHaveLength(0)
    expect(held.summary).toContain(
      'Key and project: checked with a request that spends nothing: the service accepted the key and sees project'
    )
    expect(held.summary).toContain('Whether the key may start jobs shows only when one starts')
  })

  it('a held batch with a wrong key or project fails now, naming the input, not when someone ticks', async () => {
    const key = await runMerged({ 'api-key': 'mint_wrong_key_0123456789' })
    expect(key.code).toBe(1)
    expect(key.log).toMatch(/::error::The service refused the API key \(HTTP 401/)
    const project = await runMerged({ 'project-id': 'no-such-project' })
    expect(project.code).toBe(1)
    expect(project.log).toMatch(/::error::Project 'no-such-project' was not found/)
    expect(creates()).toHaveLength(0)
  })

  it('a held batch whose check finds the service down waits as planned, with a warning', async () => {
    sim.inject({ route: 'list', kind: 'status', status: 503, times: 10 })
    const held = await runMerged()
    expect(held.code).toBe(0)
    expect(held.outputs.result).toBe('waiting')
    expect(held.log).toMatch(/::warning::The key and project could not be checked \(.*503/)
  })

  it('every GitHub call matches GitHub’s OpenAPI description', () => {
    expect(suite.problems()).toEqual([])
  })
})
