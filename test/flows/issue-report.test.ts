import { beforeEach, describe, expect, it } from 'vitest'
import { SIM_API_KEY } from '../simulator/server.js'
import { useAgentServices } from '../support/agent-services.js'
import { expectCleanFailure, visible } from '../support/assertions.js'
import { closedPort } from '../support/clients.js'
import { markerIn } from '../support/records.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'

// What the issue shows of a run, and what the job summary says it shows (issue 17, item 16): a
// failure before the job is said on the issue, `comment: true` fails the step when the comment
// cannot be written, and the summary names the comment or says why there is none. In-process.
const TOKEN = 'ghs_fake_token_value'
const services = useAgentServices()
const { clock } = services
let runId = 7000
beforeEach(() => {
  runId++
})

const issue = {
  number: 7,
  title: 'Document the retry options',
  body: 'The client gained `retries` and `backoff`.',
  html_url: 'https://github.com/acme/docs/issues/7'
}
const labeled = {
  action: 'labeled',
  label: { name: 'docs-agent' },
  issue,
  sender: { login: 'maintainer', type: 'User' }
}
const commented = (body: string) => ({
  action: 'created',
  issue,
  comment: { id: 99, body },
  sender: { login: 'maintainer', type: 'User' }
})

const run = (
  r: { inputs?: Record<string, string>; event?: unknown; eventName?: string } = {}
): Promise<RunResult> =>
  runInProcess({
    clock,
    inputs: services.inputs(TOKEN, r.inputs),
    event: r.event ?? labeled,
    env: services.env({
      GITHUB_EVENT_NAME: r.eventName ?? 'issues',
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: '1'
    })
  })
const commentUrl = (id: number | undefined) =>
  `https://github.com/acme/docs/issues/7#issuecomment-${id}`

describe('a label run that fails before its job', () => {
  const WRONG_KEY = 'mint_wrong0123456789abcdef'
  it.each([
    ['a key the service refuses', { 'api-key': WRONG_KEY }, /HTTP 401/],
    ['an unknown project', { 'project-id': 'proj_missing' }, /HTTP 404/],
    [
      'an api-url nothing answers at',
      { 'api-url': 'closed' },
      /ECONNREFUSED|could not connect|refused/i
    ]
  ] as const)('says so on the issue: %s', async (_what, inputs, reason) => {
    const given: Record<string, string> = { ...inputs }
    if (given['api-url'] === 'closed') given['api-url'] = `http://127.0.0.1:${await closedPort()}`
    const result = await run({ inputs: given })
    expect(result.code).toBe(1)
    expect(result.outputs.jobId).toBe('')
    const comments = services.gh.commentsOn(7)
    expect(comments).toHaveLength(1)
    const body = comments[0]?.body ?? ''
    expect(body).toMatch(/^❌ \*\*Mintlify agent\*\* failed: /)
    expect(body).toMatch(reason)
    expect(body).toContain(
      `The [workflow run](https://github.com/acme/docs/actions/runs/${runId}) has the details.`
    )
    // No job, no record: a later run does not take it for one.
    expect(markerIn(body, 7)).toBeUndefined()
    expect(result.summary).toContain(
      `#7 shows this failure in [its comment](${commentUrl(comments[0]?.id)}).`
    )
    for (const secret of [TOKEN, SIM_API_KEY, WRONG_KEY]) {
      expect(body).not.toContain(secret)
      expect(visible(result)).not.toContain(secret)
    }
  })

  it('says why the issue shows nothing when the token cannot write: the run stops before the service is asked', async () => {
    services.gh.failures.set('create-comment', 403)
    const result = await run({ inputs: { 'project-id': 'proj_missing' } })
    expectCleanFailure(result, /Could not comment on #7 \(HTTP 403\), so nothing was sent/, [
      TOKEN,
      SIM_API_KEY
    ])
    expect(services.sim.exchanges).toHaveLength(0)
    expect(result.summary).toContain(
      '(HTTP 403\\), so nothing was sent to the agent and nothing was spent'
    )
  })

  it('puts the failure in the place of its first comment, and says so when that update is refused', async () => {
    const failed = await run({ inputs: { 'project-id': 'proj_missing' } })
    expectCleanFailure(failed, /.*HTTP 404.*/, [TOKEN, SIM_API_KEY])
    const [comment] = services.gh.commentsOn(7)
    expect(services.gh.commentsOn(7)).toHaveLength(1)
    expect(comment?.body).toMatch(/^❌ \*\*Mintlify agent\*\* failed: .*HTTP 404/)
    runId++
    services.gh.failures.set('update-comment', 403)
    const result = await run({ inputs: { 'project-id': 'proj_missing' } })
    expectCleanFailure(result, /.*HTTP 404.*/, [TOKEN, SIM_API_KEY])
    expect(result.log).toMatch(/::warning::Could not update the comment on #7: HTTP 403\./)
    expect(services.gh.commentsOn(7)[1]?.body).toMatch(/is starting/)
    expect(result.summary).toMatch(
      /#7 does not show .*: the last update of \[its comment\]\(.*\) could not be written \(HTTP 403\)\. Give the workflow 'issues: write'/
    )
  })

  it('leaves the comment a /docs-agent follow-up adopted as it was, and says the failure in another', async () => {
    const first = await run()
    const recorded = services.gh.commentsOn(7)[0]?.body
    runId++
    services.sim.inject({
      route: 'message',
      kind: 'status',
      status: 400,
      body: { error: 'Bad message' }
    })
    const result = await run({ eventName: 'issue_comment', event: commented('/docs-agent more') })
    expect(result.code).toBe(1)
    const comments = services.gh.commentsOn(7)
    expect(comments).toHaveLength(2)
    expect(comments[0]?.body).toBe(recorded)
    expect(markerIn(comments[0]?.body, 7)?.job).toBe(first.outputs.jobId)
    expect(comments[1]?.body).toMatch(/^❌ \*\*Mintlify agent\*\* failed: .*HTTP 400/)
  })

  it('starts nothing on the issue for a run refused before any request (no comment, no job)', async () => {
    const result = await run({ event: { ...labeled, sender: { login: 'stranger', type: 'User' } } })
    expect(result.code).toBe(0)
    expect(services.gh.comments).toHaveLength(0)
  })
})

describe('the job summary says what the issue shows', () => {
  it('links the comment that holds the outcome', async () => {
    const result = await run()
    const [comment] = services.gh.commentsOn(7)
    expect(result.summary).toContain(
      `#7 shows this run's job and its outcome in [its comment](${commentUrl(comment?.id)}).`
    )
  })

  it('says nothing was shown when the first comment could not be written; comment: auto stays green', async () => {
    // A refusal (403) stops the run before its job (issue-run.test.ts); a server error is a warning.
    services.gh.failures.set('create-comment', { status: 500, times: 100 })
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.summary).toContain(
      '#7 shows nothing of this run: the comment could not be written (HTTP 500).'
    )
  })
})

describe("comment: true ('must comment')", () => {
  it('fails the step when the comment cannot be updated, with the outputs of the job all the same', async () => {
    // The first comment goes up before the job; a refused first comment starts nothing (issue-run.test.ts).
    services.gh.failures.set('update-comment', 403)
    const result = await run({ inputs: { comment: 'true' } })
    expectCleanFailure(
      result,
      /Could not update the comment on #7 \(HTTP 403\), and 'comment' is 'true': the run must comment\. Give the workflow 'issues: write'.*/,
      [TOKEN, SIM_API_KEY]
    )
    expect(result.outputs.result).toBe('pr-opened')
    expect(result.outputs.jobId).not.toBe('')
  })

  it('fails the step when the outcome cannot be written into the comment, and says what it shows', async () => {
    // The first comment is written; its updates, the job and then the outcome, are refused.
    services.gh.failures.set('update-comment', 502)
    const result = await run({ inputs: { comment: 'true' } })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::Could not update the comment on #7 \(HTTP 502\), and 'comment' is 'true': the run must comment\./
    )
    const [comment] = services.gh.commentsOn(7)
    expect(comment?.body).toContain('is starting')
    expect(result.summary).toContain(
      `#7 does not show this run's job and its outcome: the last update of [its comment](${commentUrl(comment?.id)}) could not be written (HTTP 502). The comment shows an earlier state.`
    )
  })

  it('passes when the comment is written', async () => {
    const result = await run({ inputs: { comment: 'true' } })
    expect(result.code).toBe(0)
    expect(services.gh.commentsOn(7)).toHaveLength(1)
  })
})
