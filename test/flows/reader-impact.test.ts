import { beforeEach, describe, expect, it } from 'vitest'
import type { FakeFile, FakeGitHub, FakePull } from '../simulator/fake-github.js'
import {
  AnalyticsWorld,
  RENAME_DOCS_FILES,
  RENAME_DOCS_TREE,
  RENAME_TITLE,
  renameWorld
} from '../simulator/analytics-impact.js'
import type { Simulator } from '../simulator/server.js'
import {
  type CodeChangeServers,
  DOCS_APP,
  DOCS_TOKEN,
  REPOSITORY,
  besideRecord
} from '../support/code-change-runs.js'
import { codeChangeSuite } from '../support/code-change-suite.js'
import type { RunResult } from '../support/run-action.js'
import { IMPACT_MARKER } from '../../src/impact/comment.js'
import { measuringStep } from '../support/impact-runs.js'
import { runInProcess, startInProcess } from '../support/run-in-process.js'
import { besidePolicy } from '../support/policy-file.js'
import {
  API_REFERENCE_SITE,
  BUILT_SITE,
  GENERATED_SITE,
  LANGUAGES_SITE,
  LOCALIZED_API_SITE,
  MONOREPO_SITE,
  OPERATION_ID_SITE,
  bigConfigSite,
  holdLayout,
  twoRootsSite
} from '../fixtures/docs-sites.js'
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
beforeEach(() => {
  sim.answerByRange(undefined)
  gh.trees.set(DOCS, RENAME_DOCS_TREE)
})

const numberOf = (link: unknown): number => Number(String(link).split('/').pop())

/**
 * A code change merged now (a job, fold: never), whose docs pull request merges `docsAfter` later
 * with `files`: the docs pull request and both merge times.
 */
async function documented(
  docsAfter: number,
  { title = RENAME_TITLE, files = RENAME_DOCS_FILES }: { title?: string; files?: FakeFile[] } = {}
): Promise<{ pull: FakePull; codeMergedAt: number; docsMergedAt: number }> {
  servers.runId++
  const code = servers.mergeNext({ title })
  const run = await runInProcess({
    clock,
    ...servers.step({
      event: servers.mergedEvent(code),
      inputs: { 'docs-token': DOCS_TOKEN, fold: 'never' }
    })
  })
  expect(run.code).toBe(0)
  const codeMergedAt = clock.wallNow()
  const docsMergedAt = codeMergedAt + docsAfter
  const pull = gh.addPull(DOCS, {
    number: numberOf(run.outputs.prLink),
    title: 'Document --watch',
    state: 'closed',
    merged: true,
    user: { login: 'mintlify[bot]', type: 'Bot' },
    createdAt: codeMergedAt,
    mergedAt: docsMergedAt,
    closedAt: docsMergedAt,
    files
  })
  return { pull, codeMergedAt, docsMergedAt }
}

/** A scheduled run with impact-after: 14d and no prompt. */
const measure = (inputs: Record<string, string> = {}): Promise<RunResult> =>
  runInProcess({ clock, ...measuringStep(servers, inputs) })

/** Moves the clock to `at`. */
const until = (at: number): Promise<void> => clock.sleep(Math.max(0, at - clock.wallNow()))
/** When a docs pull request merged at `mergedAt` is due with 14-day windows. */
const dueAt = (mergedAt: number): number => (Math.floor(mergedAt / DAY) + 1 + 14 + 1) * DAY

const analytics = () => sim.exchanges.filter(e => e.path.startsWith('/v1/analytics/'))
const impactComments = (pull: FakePull) =>
  gh.commentsOn(pull.number, DOCS).filter(c => c.body.includes('Readers before and after'))
const dashboard = (): string => servers.dashboards()[0]?.body ?? ''
const jobOf = (pull: FakePull) =>
  servers.ledgerOf()?.jobs.find(j => j.prLink?.endsWith(`/pull/${pull.number}`))
const row = (body: string, label: string): string =>
  body.split('\n').find(l => l.startsWith(`| ${label} |`)) ?? ''

describe('reader impact of merged docs pull requests', () => {
  it('the rename world: searches for the new flag found nothing until the docs merged, and the renamed page, read at its old path before the merge, kept the old one’s readers', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(10 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    const creates = sim.requests('create').length
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.outputs.result).toBe('skipped')
    expect(run.log).toContain('measured the reader impact of 1 docs pull request')
    // What was measured, for a later step: the count, the docs pull requests, the requests spent.
    expect(run.outputs.measured).toBe('1')
    expect(JSON.parse(String(run.outputs['pull-requests']))).toEqual([jobOf(pull)?.prLink])
    expect(run.outputs.requests).toBe('10')
    expect(run.outputs['dashboard-url']).toMatch(
      new RegExp(`/issues/${servers.dashboards()[0]?.number}$`)
    )
    // Measured; nothing started.
    expect(sim.requests('create')).toHaveLength(creates)
    expect(analytics()).toHaveLength(10)
    const [comment] = impactComments(pull)
    expect(comment).toBeDefined()
    const body = comment?.body ?? ''
    const mergeDay = Math.floor(docsMergedAt / DAY) * DAY
    const day = (at: number) => new Date(at).toISOString().slice(0, 10)
    expect(body).toContain(
      `**before** ${day(mergeDay - 14 * DAY)} to ${day(mergeDay - DAY)}, **after** ${day(mergeDay + DAY)} to ${day(mergeDay + 14 * DAY)}`
    )
    // The windows as the analytics were asked: whole days, dateTo exclusive.
    const views = analytics().filter(e => e.route === 'views')
    expect(views.map(v => [v.query.dateFrom, v.query.dateTo])).toEqual([
      [day(mergeDay - 14 * DAY), day(mergeDay)],
      [day(mergeDay + DAY), day(mergeDay + 15 * DAY)]
    ])
    // The renamed page is read at its old path before the merge, its new one after.
    expect(body).toContain('- **Pages**: `/cli/commands`, `/cli/follow` → `/cli/watch`')
    expect(body).toContain('- **Terms**: `--follow`, `--watch`')
    // 40 a day on the commands page and 30 on the renamed page, before as after, for 14 days: the
    // rename moved its readers, it did not add any.
    expect(row(body, 'Human page views')).toBe('| Human page views | 980 | 980 | → same |')
    expect(row(body, 'Human visitors (per page, summed)')).toBe(
      '| Human visitors (per page, summed) | 588 | 588 | → same |'
    )
    expect(row(body, 'AI visitors (per page, summed)')).toBe(
      '| AI visitors (per page, summed) | 109 | 109 | → same |'
    )
    // Two a day on the commands page from the code merge to the docs' (10 days); two in 14 days after.
    expect(row(body, 'Thumbs-down')).toBe('| Thumbs-down | 20 | 2 | ↓ −18 (−90%) |')
    // A rate is as few as its thumbs-down: 20 before is enough to show a direction.
    expect(row(body, 'Thumbs-down per 100 human views')).toBe(
      '| Thumbs-down per 100 human views | 2.0 | 0.2 | ↓ −1.8 (−90%) |'
    )
    // 6 + 2 searches a day for the new name with no click for 10 days; clicked after.
    expect(row(body, 'Searches for its terms with no result clicked')).toBe(
      '| Searches for its terms with no result clicked | 80 | 0 | ↓ −80 (−100%) |'
    )
    expect(row(body, 'Unanswered assistant questions on its terms or pages')).toBe(
      '| Unanswered assistant questions on its terms or pages | 10 | 0 | ↓ −10 (−100%) |'
    )
    expect(body).not.toMatch(/improv|helped|better|worse|success/i)
    // Remembered, and shown on the dashboard.
    const impact = jobOf(pull)?.impact
    expect(impact?.before).toEqual([980, 588, 109, 20, 80, 10])
    expect(impact?.after).toEqual([980, 588, 109, 2, 0, 0])
    expect(impact?.commentUrl).toContain(`/pull/${pull.number}#issuecomment-`)
    expect(dashboard()).toContain('#### Reader impact of merged docs pull requests')
    expect(dashboard()).toContain('| 980 → 980 → | 588 → 588 → | 20 → 2 ↓ | 80 → 0 ↓ | 10 → 0 ↓ |')
  })

  it('a folder the docs pull request removed is no docs root, and no reason not to measure it', async () => {
    // The first changed folder is gone from the default branch: GitHub answers 404 for it.
    const files = [{ filename: 'legacy/old.mdx', status: 'removed' as const }, ...RENAME_DOCS_FILES]
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY, { files })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).not.toContain('could not read the files')
    expect(impactComments(pull)).toHaveLength(1)
    expect(impactComments(pull)[0]?.body).toContain(
      '- **Pages**: `/cli/commands`, `/cli/follow` → `/cli/watch`'
    )
    expect(jobOf(pull)?.impact).toBeDefined()
  })

  it('measures a docs pull request once its after window and a day have passed, not before, and only once', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt) - HOUR)
    sim.nextRun()
    const early = await measure()
    expect(early.code).toBe(0)
    expect(analytics()).toHaveLength(0)
    expect(impactComments(pull)).toHaveLength(0)
    expect(early.log).toContain('0 merged docs pull requests due, 1 whose windows are not over yet')
    expect([early.outputs.measured, early.outputs['pull-requests']]).toEqual(['0', '[]'])
    await clock.sleep(2 * HOUR)
    expect((await measure()).code).toBe(0)
    expect(impactComments(pull)).toHaveLength(1)
    // Remembered: the next run reads and posts nothing.
    sim.nextRun()
    await clock.sleep(DAY)
    const again = await measure()
    expect(again.code).toBe(0)
    expect(analytics()).toHaveLength(0)
    expect(impactComments(pull)).toHaveLength(1)
  })

  it('one comment however often it is measured: a comment an earlier run could not remember is adopted', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    // Someone quoting the marker is not the action.
    gh.addComment(pull.number, `quoted ${IMPACT_MARKER}`, { login: 'bob', type: 'User' }, DOCS)
    // Posted by docs-token's identity (an App's, not github-token's `github-actions[bot]`).
    const earlier = gh.addComment(
      pull.number,
      `### Readers before and after this pull request merged\n\n${IMPACT_MARKER}`,
      DOCS_APP,
      DOCS
    )
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).toContain('commented on it already, by an earlier run')
    expect(impactComments(pull)).toEqual([earlier])
    expect(jobOf(pull)?.impact?.commentUrl).toBe(
      `${jobOf(pull)?.prLink}#issuecomment-${earlier.id}`
    )
  })

  it('adopts only a comment by the docs-token identity: another bot quoting the marker is not the action', async () => {
    const writer = { login: 'docs-writer', type: 'User' as const }
    gh.tokenUsers.set(DOCS_TOKEN, writer)
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    const heading = `### Readers before and after this pull request merged\n\n${IMPACT_MARKER}`
    gh.addComment(pull.number, heading, { login: 'renovate[bot]', type: 'Bot' }, DOCS)
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).not.toContain('commented on it already')
    const posted = impactComments(pull).filter(c => c.user.login === 'docs-writer')
    expect(posted).toHaveLength(1)
    expect(jobOf(pull)?.impact?.commentUrl).toBe(
      `${jobOf(pull)?.prLink}#issuecomment-${posted[0]?.id}`
    )
    // A person's own token (a User): its earlier comment is adopted all the same.
    const other = await documented(2 * DAY)
    await until(dueAt(other.docsMergedAt))
    const earlier = gh.addComment(other.pull.number, heading, writer, DOCS)
    const again = await measure()
    expect(again.log).toContain('commented on it already, by an earlier run')
    expect(impactComments(other.pull)).toEqual([earlier])
  })

  it('the impact sub-action only measures; the changes sub-action’s catch-up then documents what merged since', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    servers.mergeNext({ title: 'Add a --quiet flag' })
    const creates = sim.requests('create').length
    const measured = await measure()
    expect(measured.code).toBe(0)
    expect(impactComments(pull)).toHaveLength(1)
    expect(sim.requests('create')).toHaveLength(creates)
    servers.runId++
    const caughtUp = await runInProcess({
      clock,
      ...servers.step({
        event: { schedule: '0 6 * * 1', repository: REPOSITORY },
        eventName: 'schedule',
        inputs: { 'docs-token': DOCS_TOKEN }
      })
    })
    expect(sim.requests('create')).toHaveLength(creates + 1)
    expect(caughtUp.outputs.result).toBe('pr-opened')
    expect(impactComments(pull)).toHaveLength(1)
  })

  describe('overlapping a change run on the dashboard: both writes are kept, whichever comes first', () => {
    /** A merge's change run, started: it reads the dashboard before the route `held` answers. */
    async function heldChangeRun(held: string, pattern: RegExp) {
      let release = (): void => undefined
      gh.delays.set(held, new Promise<void>(resolve => (release = resolve)))
      servers.runId++
      const code = servers.mergeNext({ title: 'Add a --quiet flag' })
      const running = startInProcess({
        clock,
        ...servers.step({ event: servers.mergedEvent(code), inputs: { 'docs-token': DOCS_TOKEN } })
      })
      await gh.received(pattern)
      gh.delays.delete(held)
      return { running, release }
    }
    const jobs = () => servers.ledgerOf()?.jobs.map(j => j.id) ?? []

    it('a measurement made while a change run waits: the run keeps it beside its new job', async () => {
      const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
      sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
      await until(dueAt(docsMergedAt))
      // The change run reads the dashboard, then the state of the docs pull request it lists.
      const change = await heldChangeRun(
        'pull',
        new RegExp(`^GET /repos/${DOCS}/pulls/${pull.number}$`)
      )
      const measured = await measure()
      expect(measured.code).toBe(0)
      expect(jobOf(pull)?.impact).toBeDefined()
      change.release()
      const ran = await change.running.done
      expect(ran.outputs.result).toBe('pr-opened')
      expect(jobs()).toHaveLength(2)
      expect(jobs()).toContain(ran.outputs.jobId)
      expect(jobOf(pull)?.impact).toBeDefined()
      expect(impactComments(pull)).toHaveLength(1)
    })

    it('a change run made while a measurement waits: the measurement keeps its job', async () => {
      const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
      sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
      await until(dueAt(docsMergedAt))
      // The measurement reads the dashboard, then is held reading the docs pull request's files.
      let release = (): void => undefined
      gh.delays.set('pull-files', new Promise<void>(resolve => (release = resolve)))
      const measuring = startInProcess({ clock, ...measuringStep(servers) })
      await gh.received(new RegExp(`^GET /repos/${DOCS}/pulls/${pull.number}/files`))
      gh.delays.delete('pull-files')
      servers.runId++
      const code = servers.mergeNext({ title: 'Add a --quiet flag' })
      const ran = await runInProcess({
        clock,
        ...servers.step({ event: servers.mergedEvent(code), inputs: { 'docs-token': DOCS_TOKEN } })
      })
      expect(ran.outputs.result).toBe('pr-opened')
      release()
      expect((await measuring.done).code).toBe(0)
      expect(jobOf(pull)?.impact).toBeDefined()
      expect(jobs()).toContain(ran.outputs.jobId)
      expect(jobs()).toHaveLength(2)
      expect(impactComments(pull)).toHaveLength(1)
    })
  })

  it('at most 10 analytics requests per docs pull request and max-requests per run, oldest merge first, the rest next run', async () => {
    const first = await documented(2 * DAY)
    const second = await documented(DAY)
    const third = await documented(3 * DAY)
    sim.answerByRange(renameWorld(first.codeMergedAt, first.docsMergedAt).answer)
    await until(dueAt(third.docsMergedAt))
    sim.nextRun()
    const run = await measure({ 'max-requests': '25' })
    expect(run.code).toBe(0)
    // The second merged first: it and the first are measured, 10 requests each; the third waits.
    expect(analytics()).toHaveLength(20)
    expect(impactComments(second.pull)).toHaveLength(1)
    expect(impactComments(first.pull)).toHaveLength(1)
    expect(impactComments(third.pull)).toHaveLength(0)
    expect(run.log).toContain("'max-requests: 25' is spent; 1 docs pull request wait")
    sim.nextRun()
    expect((await measure({ 'max-requests': '25' })).code).toBe(0)
    expect(analytics()).toHaveLength(10)
    expect(impactComments(third.pull)).toHaveLength(1)
  })

  it('max-requests below what a docs pull request takes says so, rather than that it is spent', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    sim.nextRun()
    const run = await measure({ 'max-requests': '5' })
    expect(run.code).toBe(0)
    expect(analytics()).toHaveLength(0)
    expect(impactComments(pull)).toHaveLength(0)
    expect(run.log).not.toContain('is spent')
    expect(run.log).toMatch(
      /::warning::Reader impact: \S+ takes 10 analytics requests, more than 'max-requests: 5' allows a run: it is measured once 'max-requests' is at least 10\./
    )
  })

  it('a rate limit part-way posts and remembers nothing for that docs pull request; the next run measures it again', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    sim.nextRun()
    sim.inject({ route: 'searches', kind: 'status', status: 429, retryAfter: '7200', times: 3 })
    const limited = await measure({ 'max-requests': '10' })
    expect(limited.code).toBe(0)
    expect(limited.log).toMatch(/::notice[^:]*::Reader impact of \S+ not measured: .*rate limit/i)
    expect(limited.log).toContain('the next run measures it again')
    expect(analytics().length).toBeLessThanOrEqual(10)
    expect(impactComments(pull)).toHaveLength(0)
    expect(jobOf(pull)?.impact).toBeUndefined()
    sim.nextRun()
    expect((await measure()).code).toBe(0)
    expect(impactComments(pull)).toHaveLength(1)
    expect(jobOf(pull)?.impact).toBeDefined()
  })

  it('impact-comment: dashboard writes nothing on the docs pull request; the dashboard shows it', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    expect((await measure({ 'impact-comment': 'dashboard' })).code).toBe(0)
    expect(besideRecord(gh.commentsOn(pull.number, DOCS))).toHaveLength(0)
    expect(jobOf(pull)?.impact?.commentUrl).toBeUndefined()
    expect(dashboard()).toContain('#### Reader impact of merged docs pull requests')
  })

  it('a docs pull request that changed no page measures nothing, its terms neither, and the dashboard says so', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY, {
      files: [
        { filename: 'docs/images/watch.png', status: 'added' },
        { filename: 'docs/snippets/a.mdx' }
      ]
    })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    sim.nextRun()
    const run = await measure()
    expect(run.log).toContain(
      'not measured: it changed no site page; no analytics request is spent on it'
    )
    // Settled, not measured: the outputs count only what was measured.
    expect(run.log).toContain(
      'measured the reader impact of 0 docs pull requests (0 analytics requests), settled 1 other it could not measure'
    )
    expect([run.outputs.measured, run.outputs['pull-requests']]).toEqual(['0', '[]'])
    // Issue 27: a pull request touching only non-pages spends no analytics request.
    expect(analytics()).toHaveLength(0)
    expect(impactComments(pull)).toEqual([])
    expect(jobOf(pull)?.impact).toMatchObject({ noPages: true })
    expect(dashboard()).toContain(
      'Not measured: it changed no site page; no analytics request was spent on it.'
    )
    // Remembered: not tried again.
    sim.nextRun()
    expect((await measure()).code).toBe(0)
    expect(analytics()).toHaveLength(0)
  })

  it('no page and no term: nothing to measure, said, and not tried again', async () => {
    const { pull } = await documented(2 * DAY, {
      title: 'Tidy up',
      files: [{ filename: 'docs/images/logo.png' }]
    })
    await until(dueAt(pull.mergedAt as number))
    sim.nextRun()
    const run = await measure()
    expect(run.log).toContain('changed no docs page and has no recorded terms')
    expect(analytics()).toHaveLength(0)
    expect(jobOf(pull)?.impact?.before).toEqual([null, null, null, null, null, null])
    // Not an empty table on the docs pull request.
    expect(besideRecord(gh.commentsOn(pull.number, DOCS))).toEqual([])
  })

  it('a window with no data: its figures are not known, not zero', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    const world = renameWorld(codeMergedAt, docsMergedAt)
    // The analytics begin on the merge's day: nothing before it.
    sim.answerByRange(
      new AnalyticsWorld(d => (d >= docsMergedAt - DAY ? world.dayOf(d) : undefined)).answer
    )
    await until(dueAt(docsMergedAt))
    expect((await measure()).code).toBe(0)
    const body = impactComments(pull)[0]?.body ?? ''
    expect(body).toContain('The service has no page views at all for the window before')
    expect(row(body, 'Human page views')).toBe('| Human page views | not known | 980 | not known |')
  })

  it('small counts: a row under 10 in both windows says too few to tell', async () => {
    const { pull, docsMergedAt } = await documented(2 * DAY)
    const mergeDay = Math.floor(docsMergedAt / DAY) * DAY
    sim.answerByRange(
      new AnalyticsWorld(d => ({
        views: {
          '/cli/commands': { human: d < mergeDay ? 0 : 1, ai: 0 },
          '/quickstart': { human: 9, ai: 1 }
        },
        thumbs: {},
        searches: {},
        questions: []
      })).answer
    )
    await until(dueAt(docsMergedAt))
    expect((await measure()).code).toBe(0)
    const body = impactComments(pull)[0]?.body ?? ''
    expect(row(body, 'Human page views')).toBe('| Human page views | 0 | 14 | ↑ +14 |')
    expect(row(body, 'Human visitors (per page, summed)')).toBe(
      '| Human visitors (per page, summed) | 0 | 8 | too few to tell |'
    )
    expect(row(body, 'Thumbs-down')).toBe('| Thumbs-down | 0 | 0 | too few to tell |')
  })

  it('dry-run: says what it would measure, and reads no analytics and writes nothing', async () => {
    const { pull, docsMergedAt } = await documented(2 * DAY)
    await until(dueAt(docsMergedAt))
    sim.nextRun()
    const run = await measure({ 'dry-run': 'true' })
    expect(run.code).toBe(0)
    expect(run.outputs.result).toBe('dry-run')
    expect(run.log).toContain('Dry run: would measure the reader impact of 1 docs pull request')
    expect(analytics()).toHaveLength(0)
    expect(besideRecord(gh.commentsOn(pull.number, DOCS))).toHaveLength(0)
    expect(jobOf(pull)?.impact).toBeUndefined()
  })

  it('no ledger yet: a notice, and nothing read', async () => {
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).toMatch(
      /::notice[^:]*::Reader impact: the dashboard of acme\/app holds no ledger/
    )
    expect(analytics()).toHaveLength(0)
  })

  it('impact-after needs docs-token and the dashboard, whole days, and is checked before any request', async () => {
    for (const [inputs, message] of [
      [{ 'docs-token': '' }, "Input 'docs-token' is required"],
      [{ dashboard: 'false' }, "The impact sub-action needs 'dashboard: true' in the policy file"],
      [{ 'impact-after': '36h' }, "Input 'impact-after' must be whole days"],
      [{ 'impact-after': '200d' }, "Input 'impact-after' must be between"],
      [{ 'impact-comment': 'issue' }, "Input 'impact-comment' must be one of pr, dashboard"],
      [{ 'max-requests': '0' }, "Input 'max-requests'"]
    ] as const) {
      const run = await measure(inputs)
      expect(run.code).toBe(1)
      expect(run.log).toContain(message)
    }
    expect(sim.exchanges).toHaveLength(0)
    // Only the policy file is read: 'dashboard: false' is a key of it.
    expect(besidePolicy(gh.requests)).toHaveLength(0)
  })

  it('docs-token without access to the docs pull request’s files: a warning naming it, nothing posted', async () => {
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY)
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    gh.failures.set('pull-files', { status: 403, times: 1 })
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).toMatch(
      /::warning::Reader impact: could not read the files of \S+ with 'docs-token' \(HTTP 403\)/
    )
    expect(impactComments(pull)).toHaveLength(0)
    expect(
      run.log
        .split('\n')
        .filter(l => !l.startsWith('::add-mask::'))
        .join('\n')
    ).not.toContain(DOCS_TOKEN)
  })

  it('a docs pull request GitHub no longer has (404) holds back none of the newer ones', async () => {
    const gone = await documented(DAY)
    const next = await documented(2 * DAY)
    sim.answerByRange(renameWorld(gone.codeMergedAt, gone.docsMergedAt).answer)
    await until(dueAt(next.docsMergedAt))
    gh.failures.set('pull-files', { status: 404, times: 1 })
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).toMatch(
      /::warning::Reader impact: could not read the files of \S+ with 'docs-token' \(HTTP 404\)/
    )
    expect(impactComments(gone.pull)).toHaveLength(0)
    expect(jobOf(gone.pull)?.impact).toBeUndefined()
    expect(impactComments(next.pull)).toHaveLength(1)
    expect(jobOf(next.pull)?.impact).toBeDefined()
  })

  it('a monorepo’s docs two folders deep: its pages measured, changesets, agent skills and notes not', async () => {
    holdLayout(gh, DOCS, MONOREPO_SITE)
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY, {
      files: [
        { filename: '.changeset/brave-lions.md', status: 'added' },
        { filename: '.claude/skills/release/SKILL.md' },
        { filename: 'packages/web/README.md' },
        { filename: 'apps/docs/README.md' },
        { filename: 'apps/docs/sdk/index.mdx' },
        {
          filename: 'apps/docs/sdk/client.md',
          status: 'renamed',
          previous_filename: 'apps/docs/sdk/old-client.md'
        },
        { filename: 'apps/docs/snippets/install.mdx' }
      ]
    })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    gh.requests.length = 0
    const run = await measure()
    expect(run.code).toBe(0)
    expect(impactComments(pull)[0]?.body).toContain(
      '- **Pages**: `/sdk`, `/sdk/old-client` → `/sdk/client`'
    )
    // One tree read and the docs root's docs.json, however deep the root.
    const reads = besidePolicy(gh.requests)
      .filter(r => /git\/trees|contents/.test(r.path))
      .map(r => r.path)
    expect(reads).toEqual([
      `/repos/${DOCS}/git/trees/HEAD`,
      `/repos/${DOCS}/contents/apps%2Fdocs%2Fdocs.json`
    ])
    expect(gh.requests.find(r => r.path.endsWith('/git/trees/HEAD'))?.query.recursive).toBeDefined()
  })

  it('a pull request touching only files Mintlify never serves spends no analytics request', async () => {
    holdLayout(gh, DOCS, LANGUAGES_SITE)
    const notPages = [
      { filename: 'CONTRIBUTING.md' },
      { filename: 'README.md' },
      { filename: '.github/pull_request_template.md' },
      { filename: '.agents/notes.md' },
      { filename: 'drafts/next.mdx', status: 'added' as const },
      { filename: 'guides/retry.draft.mdx' },
      { filename: 'snippets/plan.mdx' }
    ]
    const tidy = await documented(2 * DAY, { title: 'Tidy up', files: notPages })
    const termed = await documented(2 * DAY, { files: notPages })
    await until(dueAt(termed.docsMergedAt))
    sim.nextRun()
    const run = await measure()
    expect(run.code).toBe(0)
    // No page: nothing, with terms or without.
    expect(analytics()).toHaveLength(0)
    expect(besideRecord(gh.commentsOn(tidy.pull.number, DOCS))).toEqual([])
    expect(besideRecord(gh.commentsOn(termed.pull.number, DOCS))).toEqual([])
    expect(jobOf(termed.pull)?.impact?.noPages).toBe(true)
    expect(dashboard()).not.toContain('/contributing')
  })

  it('pages in language folders are their own language’s pages; a spec change measures the operation pages the navigation names from it', async () => {
    holdLayout(gh, DOCS, LANGUAGES_SITE)
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY, {
      files: [
        { filename: 'es/advanced-support.mdx' },
        { filename: 'index.mdx' },
        { filename: 'guides/index.mdx' },
        { filename: 'api/openapi.json' }
      ]
    })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    expect((await measure()).code).toBe(0)
    const body = impactComments(pull)[0]?.body ?? ''
    // The operation pages the navigation names from the changed spec, at the paths Mintlify
    // builds from its tags and summaries (read with one more request).
    expect(body).toContain(
      '- **Pages**: `/`, `/es/advanced-support`, `/guides`, `/api-reference/users/create-a-user-admins`, `/api-reference/users/list-users`'
    )
    expect(body).not.toContain('OpenAPI pages')
    expect(gh.requests.map(r => r.path)).toContain(`/repos/${DOCS}/contents/api%2Fopenapi.json`)
  })

  it('a spec over 1 MB is read whole (raw), advises no permission, and holds back no later measurement', async () => {
    const spec = JSON.parse(LANGUAGES_SITE.texts['api/openapi.json'] as string) as Record<
      string,
      unknown
    >
    const large = JSON.stringify({
      ...spec,
      info: { title: 'Acme', version: '1', description: 'x'.repeat(1_500_000) }
    })
    holdLayout(gh, DOCS, {
      ...LANGUAGES_SITE,
      texts: { ...LANGUAGES_SITE.texts, 'api/openapi.json': large }
    })
    const first = await documented(DAY, { files: [{ filename: 'api/openapi.json' }] })
    const next = await documented(2 * DAY, { files: [{ filename: 'quickstart.mdx' }] })
    sim.answerByRange(renameWorld(first.codeMergedAt, first.docsMergedAt).answer)
    await until(dueAt(next.docsMergedAt))
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).not.toMatch(/Give 'docs-token'/)
    expect(impactComments(first.pull)[0]?.body).toContain(
      '- **Pages**: `/api-reference/users/create-a-user-admins`, `/api-reference/users/list-users`'
    )
    expect(impactComments(next.pull)).toHaveLength(1)
  })

  /** The pages line of the impact comment on `pull`. */
  const pagesLine = (pull: FakePull): string =>
    (impactComments(pull)[0]?.body ?? '').split('\n').find(l => l.startsWith('- **Pages**')) ?? ''

  it('an API reference: a spec change measures every page whose frontmatter renders one of its operations', async () => {
    holdLayout(gh, DOCS, API_REFERENCE_SITE)
    const spec = await documented(DAY, { files: [{ filename: 'openapi.json' }] })
    const admin = await documented(2 * DAY, { files: [{ filename: 'admin-openapi.json' }] })
    sim.answerByRange(renameWorld(spec.codeMergedAt, spec.docsMergedAt).answer)
    await until(dueAt(admin.docsMergedAt))
    gh.requests.length = 0
    expect((await measure()).code).toBe(0)
    // Its spec named (`/openapi.json POST …`), or none named and openapi.json the first to hold it;
    // `GET /users` is admin-openapi.json's, which comes first in alphabetical order.
    expect(pagesLine(spec.pull)).toBe(
      '- **Pages**: `/api/projects/get`, `/api/update/status`, `/api/update/trigger`, `/guides/webhooks`'
    )
    expect(pagesLine(admin.pull)).toBe('- **Pages**: `/api/agent/create-job`, `/api/users/list`')
    // The pages' frontmatter in one GraphQL request per pull request; no file refused.
    expect(
      gh.requests.filter(
        r => r.path.endsWith('/graphql') && JSON.stringify(r.body).includes('HEAD:')
      )
    ).toHaveLength(2)
  })

  it('generated API pages under each openapi element’s own directory, its slashes kept', async () => {
    holdLayout(gh, DOCS, LOCALIZED_API_SITE)
    const { pull, codeMergedAt, docsMergedAt } = await documented(DAY, {
      files: [{ filename: 'api/openapi.json' }]
    })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(pagesLine(pull)).toBe(
      '- **Pages**: `/api-reference/v2/users/delete-user`, `/api-reference/v2/users/list-users`, `/ko/api-reference/v2/users/delete-user`, `/ko/api-reference/v2/users/list-users`'
    )
  })

  it('slug: operationId: generated API pages measured at their operation IDs; one whose split Mintlify does not document said, not measured', async () => {
    holdLayout(gh, DOCS, OPERATION_ID_SITE)
    const { pull, codeMergedAt, docsMergedAt } = await documented(DAY, {
      files: [{ filename: 'openapi.json' }]
    })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(pagesLine(pull)).toBe(
      '- **Pages**: `/reference/users/create-user`, `/reference/users/delete-user`, `/reference/users/edit`, `/reference/users/list-users`'
    )
    // Said in the comment, escaped as every note of the mapping is.
    const note = (impactComments(pull)[0]?.body ?? '').split('\n').find(l => l.includes('slug'))
    expect(note).toMatch(/^- Not measured: 2 pages of a changed spec named after operation IDs/)
    expect(note).toMatch(/: getHTTPStatus, listUsersV2\.$/)
  })

  it('a configuration over 1 MB, and one split by $ref: read whole, their redirects followed', async () => {
    holdLayout(gh, DOCS, bigConfigSite())
    const big = await documented(DAY, {
      files: [{ filename: 'guides/retired.mdx' }, { filename: 'guides/page-1.mdx' }]
    })
    sim.answerByRange(renameWorld(big.codeMergedAt, big.docsMergedAt).answer)
    await until(dueAt(big.docsMergedAt))
    const run = await measure()
    expect(run.code).toBe(0)
    expect(run.log).not.toMatch(/Give 'docs-token'/)
    // The last of 24,001 redirects, 2.4 MB into docs.json: /guides/retired is served no more.
    expect(pagesLine(big.pull)).toBe('- **Pages**: `/guides/page-1`')
    holdLayout(gh, DOCS, API_REFERENCE_SITE)
    const split = await documented(DAY, {
      files: [{ filename: 'api/update/old-trigger.mdx' }, { filename: 'fr/index.mdx' }]
    })
    await until(dueAt(split.docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(pagesLine(split.pull)).toBe('- **Pages**: `/fr`')
  })

  it('two folders with a configuration: Mintlify’s default root, or the other folder said in the comment', async () => {
    holdLayout(gh, DOCS, twoRootsSite('docs/'))
    const root = await documented(DAY, { files: [{ filename: 'docs/intro.mdx' }] })
    await until(dueAt(root.docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(pagesLine(root.pull)).toBe('- **Pages**: `/docs/intro`')
    gh.trees.clear()
    holdLayout(gh, DOCS, twoRootsSite('gone/'))
    const deeper = await documented(DAY, { files: [{ filename: 'docs/intro.mdx' }] })
    await until(dueAt(deeper.docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(pagesLine(deeper.pull)).toBe('- **Pages**: `/intro`')
    // The note's words are test/unit/docs-site.test.ts's: the comment carries it.
    expect(impactComments(deeper.pull)[0]?.body).toContain('- The pages are mapped from docs/')
  })

  it('the policy file’s docs-root names the folder Mintlify deploys, over Mintlify’s default', async () => {
    // Both folders describe docs/intro.mdx; the root, Mintlify's default, would serve /docs/intro.
    holdLayout(gh, DOCS, twoRootsSite('docs/'))
    const { pull, docsMergedAt } = await documented(DAY, {
      files: [{ filename: 'docs/intro.mdx' }]
    })
    await until(dueAt(docsMergedAt))
    expect((await measure({ 'docs-root': 'docs/' })).code).toBe(0)
    expect(pagesLine(pull)).toBe('- **Pages**: `/intro`')
    expect(impactComments(pull)[0]?.body).not.toContain('The pages are mapped from')
  })

  it('a site partly built from another folder: a changed page the navigation does not name is unsure, and measured for nothing', async () => {
    holdLayout(gh, DOCS, BUILT_SITE)
    const mixed = await documented(DAY, {
      files: [{ filename: 'oss/quickstart.mdx' }, { filename: 'home/pricing.mdx' }]
    })
    const built = await documented(DAY, { files: [{ filename: 'oss/install.mdx' }] })
    sim.answerByRange(renameWorld(mixed.codeMergedAt, mixed.docsMergedAt).answer)
    await until(dueAt(built.docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(pagesLine(mixed.pull)).toBe('- **Pages**: `/home/pricing`')
    expect(impactComments(mixed.pull)[0]?.body).toContain(
      '- Not measured: oss/quickstart.mdx: the navigation does not name its page'
    )
    expect(impactComments(built.pull)[0]?.body).toContain(
      'Not measured: oss/install.mdx: the navigation does not name its page, and it names 6 pages no file under the repository root serves'
    )
    expect(jobOf(built.pull)?.impact?.unsure).toBeDefined()
  })

  for (const [shape, layout, line] of [
    [
      'a site built from a generated folder',
      GENERATED_SITE,
      'Not measured: the navigation of docs.json names 6 pages no file under the repository root serves: the site seems built from another folder'
    ],
    [
      'no docs root',
      { paths: ['README.md', 'guides/a.mdx'], texts: {} },
      'Not measured: the repository holds no docs.json or mint.json'
    ]
  ] as const)
    it(`${shape}: said in one line in the comment and on the dashboard, and no analytics request spent`, async () => {
      holdLayout(gh, DOCS, layout)
      const { pull, docsMergedAt } = await documented(2 * DAY, {
        files: [{ filename: 'intro.mdx' }, { filename: 'guides/a.mdx' }]
      })
      await until(dueAt(docsMergedAt))
      sim.nextRun()
      const run = await measure()
      expect(run.code).toBe(0)
      expect(analytics()).toHaveLength(0)
      const body = impactComments(pull)[0]?.body ?? ''
      expect(body.split('\n').filter(l => l.includes('Not measured'))).toHaveLength(1)
      expect(body).toContain(line)
      expect(body).not.toContain('| Measure |')
      expect(dashboard()).toContain(line)
      expect(jobOf(pull)?.impact?.unsure).toBeDefined()
      // Remembered: not tried again.
      sim.nextRun()
      expect((await measure()).code).toBe(0)
      expect(impactComments(pull)).toHaveLength(1)
    })

  it('a tree too large for GitHub to list whole: its docs root found in the part listed, or said unsure', async () => {
    const many = Array.from({ length: 50 }, (_, i) => `assets/${i}.png`)
    gh.trees.set(DOCS, [...RENAME_DOCS_TREE, ...many])
    gh.truncatedTrees.set(DOCS, 20)
    const listed = await documented(2 * DAY)
    await until(dueAt(listed.docsMergedAt))
    expect((await measure()).code).toBe(0)
    expect(impactComments(listed.pull)[0]?.body).toContain('`/cli/commands`')
    // The docs root past what GitHub listed: not guessed.
    gh.trees.set(DOCS, [...many, ...RENAME_DOCS_TREE])
    const unlisted = await documented(2 * DAY)
    await until(dueAt(unlisted.docsMergedAt))
    sim.nextRun()
    expect((await measure()).code).toBe(0)
    expect(analytics()).toHaveLength(0)
    expect(impactComments(unlisted.pull)[0]?.body).toContain(
      'Not measured: the repository is too large for GitHub to list in one read'
    )
  })

  it('very long page paths: the comment stays under GitHub’s limit, and the measurement is remembered', async () => {
    const long = Array.from(
      { length: 12 },
      (_, i) => `docs/${String(i).padStart(2, '0')}${'x'.repeat(950)}.mdx`
    )
    gh.trees.set(DOCS, [...RENAME_DOCS_TREE, ...long])
    const { pull, codeMergedAt, docsMergedAt } = await documented(2 * DAY, {
      files: long.map(filename => ({ filename, status: 'added' as const }))
    })
    sim.answerByRange(renameWorld(codeMergedAt, docsMergedAt).answer)
    await until(dueAt(docsMergedAt))
    expect((await measure()).code).toBe(0)
    const body = impactComments(pull)[0]?.body ?? ''
    expect(body.length).toBeGreaterThan(0)
    expect(body.length).toBeLessThan(65_536)
    expect(body).toContain('and 2 more')
    expect(jobOf(pull)?.impact?.commentUrl).toBeDefined()
  })

  it('every GitHub call of the suite matches GitHub’s OpenAPI description', () => {
    expect(suite.problems()).toEqual([])
    expect(suite.calls.length).toBeGreaterThan(0)
  })
})
