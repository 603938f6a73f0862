import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { FakePull } from '../simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import { expectCleanFailure, visible } from '../support/assertions.js'
import {
  APP,
  type ChangeRun,
  CodeChangeServers,
  DOCS_TOKEN,
  REPOSITORY,
  TOKEN
} from '../support/code-change-runs.js'
import { type RunResult, runAction } from '../support/run-action.js'
import { ANY_STEP, markerIn } from '../support/records.js'
import { LEGACY_SITE, holdLayout } from '../fixtures/docs-sites.js'
import { renameWorld } from '../simulator/analytics-impact.js'
import { measuringStep } from '../support/impact-runs.js'

/*
 * The runner's contract for runs on code changes, on the bundle (dist/, or ACTION_DIST): inputs as
 * INPUT_* variables with hyphens in their names, GITHUB_OUTPUT, GITHUB_STATE and
 * GITHUB_STEP_SUMMARY written through @actions/core, ::add-mask:: and annotations on standard
 * output, the exit code. The runs are merges into the default branch, kept in the dashboard's
 * ledger. What the flows do is tested in-process: test/flows/code-change.test.ts (outside the
 * ledger) and test/flows/ledger.test.ts.
 */
let servers: CodeChangeServers
beforeAll(async () => {
  servers = await CodeChangeServers.start()
})
afterAll(() => servers.close())
beforeEach(() => servers.reset())

/** Pull request `number` merged into main (GitHub's merge commit made), and its event. */
function merge(number: number): { pull: FakePull; event: Record<string, unknown> } {
  const { gh } = servers
  if (!gh.headOf(APP)) gh.commitTo(APP, { message: 'Initial commit' })
  const pull = servers.pull({ number })
  gh.mergePull(APP, pull)
  return { pull, event: servers.merged(pull, 'closed', REPOSITORY) }
}
const run = (r: ChangeRun = {}): Promise<RunResult> =>
  runAction(servers.step({ ...r, event: r.event ?? merge(42).event }))
const notice = (result: RunResult) =>
  result.log.split('\n').filter(l => l.startsWith('::notice title=Mintlify agent::'))

describe('the bundled agent on a code change, run as the runner runs it', () => {
  it('reads its inputs, writes outputs, summary and comment state, records the dashboard, masks the token, exits 0', async () => {
    const { sim, gh } = servers
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({
      result: 'pr-opened',
      decision: 'new-job',
      prompt: '',
      source: 'https://github.com/acme/app/pull/42',
      prLink: expect.stringMatching(/^https:\/\/github.com\/acme\/docs\/pull\/\d+$/),
      jobId: expect.stringMatching(/^job_/)
    })
    expect(sim.requests('create')).toHaveLength(1)
    expect(result.summary).toContain('| Change | [https://github.com/acme/app/pull/42]')
    const [comment] = gh.commentsOn(42)
    expect(gh.comments).toHaveLength(1)
    expect(markerIn(comment?.body, 42, 'acme/app')).toEqual({
      job: result.outputs.jobId,
      run: String(servers.runId),
      attempt: 1,
      step: ANY_STEP,
      kind: 'change',
      project: SIM_PROJECT,
      pr: result.outputs.prLink
    })
    // What the post step is handed (STATE_comment): the comment, final, so it leaves it alone.
    expect(JSON.parse(result.state.comment as string)).toMatchObject({
      issue: 42,
      commentId: comment?.id,
      job: { id: result.outputs.jobId },
      final: true
    })
    // The ledger: one dashboard issue, which records the job.
    const dashboards = [...gh.issues.values()]
    expect(dashboards).toHaveLength(1)
    expect(dashboards[0]?.title).toBe('Docs agent dashboard')
    expect(dashboards[0]?.body).toContain(String(result.outputs.jobId))
    expect(gh.requests.every(r => r.authorization === `token ${TOKEN}`)).toBe(true)
    expect(result.log).toContain(`::add-mask::${TOKEN}`)
    expect(visible(result)).not.toContain(TOKEN)
    expect(visible(result)).not.toContain(SIM_API_KEY)
  })

  it('reads docs-token (a hyphenated input), masks it, and says with a notice why the changes did not join', async () => {
    const { sim, gh } = servers
    // Jobs done when created: the wait for them is the first test's (each run would wait 4 s).
    sim.planNext({ durationMs: 0 }).planNext({ durationMs: 0 })
    const first = await run({ event: merge(1).event })
    const docsPr = first.outputs.prLink as string
    expect(docsPr).toMatch(/^https:\/\/github.com\/acme\/docs\/pull\/\d+$/)
    servers.runId++
    // Not registered: the fake answers 404, as GitHub does for a private repository the token cannot see.
    const unreadable = await run({ event: merge(2).event, inputs: { 'docs-token': DOCS_TOKEN } })
    expect(unreadable.code).toBe(0)
    expect(unreadable.outputs.jobId).not.toBe(first.outputs.jobId)
    expect(unreadable.outputs.decision).toBe('new-job')
    // The notice's words are test/unit/change.test.ts's.
    expect(notice(unreadable)[0]).toContain(
      `Could not read the state of the docs pull request ${docsPr} (HTTP 404)`
    )
    const read = gh.requests.find(r => r.path.startsWith('/repos/acme/docs/pulls/'))
    expect(read?.authorization).toBe(`token ${DOCS_TOKEN}`)
    expect(unreadable.log).toContain(`::add-mask::${DOCS_TOKEN}`)
    expect(visible(unreadable)).not.toContain(DOCS_TOKEN)
  })

  it.each([
    // With the ledger, the first GraphQL read is the dashboard's (its labelled issues and the
    // token's identity), so that is what a refused GraphQL stops.
    [
      'with the ledger',
      {},
      /Could not read the docs agent dashboard issue \(HTTP 403\), which records what was handed to the agent, so nothing was started\. Give the workflow 'issues: write'/
    ],
    [
      'outside it',
      { dashboard: 'false' },
      /Could not read pull request #42: HTTP 403\. Give the workflow 'contents: read' and 'pull-requests: read'/
    ]
  ])(
    'fails the step (exit 1) with one ::error:: line when GitHub refuses its reads, %s',
    async (_, inputs, message) => {
      const { sim, gh } = servers
      gh.failures.set('graphql', 403)
      const result = await run({ inputs })
      expectCleanFailure(result, message, [TOKEN, SIM_API_KEY])
      expect(result.log.match(/^::error::/gm)).toHaveLength(1)
      expect(result.log).not.toContain('Unexpected error')
      expect(sim.exchanges).toHaveLength(0)
      expect(gh.comments).toHaveLength(0)
      // Nothing was handed over, so the dashboard records nothing.
      expect(gh.requests.filter(r => r.method !== 'GET' && r.path !== '/graphql')).toEqual([])
    }
  )

  it('measures reader impact of a YAML OpenAPI change: the YAML parser loads from its chunk beside the bundle', async () => {
    const { sim, gh } = servers
    const DAY = 86_400_000
    const now = Date.now()
    gh.commitTo(APP, { message: 'Initial commit' })
    servers.runId++
    // A job done when created: the wait for it is the first test's.
    sim.planNext({ durationMs: 0 })
    const code = servers.mergeNext({ title: 'Rename the `--follow` flag to `--watch`' })
    const opened = await runAction(
      servers.step({
        event: servers.mergedEvent(code),
        inputs: { 'docs-token': DOCS_TOKEN, fold: 'never' }
      })
    )
    expect(opened.outputs.result).toBe('pr-opened')
    const number = Number(String(opened.outputs.prLink).split('/').pop())
    gh.addPull('acme/docs', {
      number,
      state: 'closed',
      merged: true,
      createdAt: now - 25 * DAY,
      mergedAt: now - 20 * DAY,
      closedAt: now - 20 * DAY,
      files: [{ filename: 'docs/openapi.yaml', status: 'modified' }]
    })
    holdLayout(gh, 'acme/docs', LEGACY_SITE)
    sim.answerByRange(renameWorld(now - 30 * DAY, now - 20 * DAY).answer)
    const measured = await runAction(measuringStep(servers))
    expect(measured.code).toBe(0)
    const comment = gh
      .commentsOn(number, 'acme/docs')
      .find(c => c.body.includes('Readers before and after'))
    // The operation pages of the YAML spec (mint.json's whole-spec anchor): read only by parsing it.
    expect(comment?.body).toContain('`/reference/get-v2-items-parts`, `/reference/v2`')
  })
})
