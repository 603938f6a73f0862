import { describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import { useAgentServices } from '../support/agent-services.js'
import { visible } from '../support/assertions.js'
import { ANY_STEP, markerIn } from '../support/records.js'
import { type RunOptions, type RunResult, runAction, startAction } from '../support/run-action.js'

// The agent's bundle as the runner runs it, for what only the runner shows: INPUT_* variables, the
// GITHUB_OUTPUT, GITHUB_STATE and GITHUB_STEP_SUMMARY files, STATE_* handed to the post step, exit
// codes, ::add-mask::, and real signals. The flows themselves are tested in-process (test/flows/).
const TOKEN = 'ghs_bundle_token_value'
const services = useAgentServices()
let runId = 9000

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

function options(
  extra: Partial<RunOptions> & { inputs?: Record<string, string> } = {}
): RunOptions {
  runId++
  return {
    ...extra,
    inputs: services.inputs(TOKEN, extra.inputs),
    event: labeled,
    env: services.env({ GITHUB_RUN_ID: String(runId), GITHUB_RUN_ATTEMPT: '1', ...extra.env })
  }
}
const run = (extra: Partial<RunOptions> = {}): Promise<RunResult> => runAction(options(extra))

describe('the agent bundle, as the runner runs it', { timeout: 60_000 }, () => {
  it('reads hyphenated INPUT_* variables, masks the secrets, and writes outputs, state and summary', async () => {
    const { sim, gh } = services
    const result = await run()
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({
      status: 'completed',
      result: 'pr-opened',
      prLink: expect.stringMatching(/^https:\/\/github.com\/acme\/docs\/pull\/\d+$/),
      jobId: expect.stringMatching(/^job_/)
    })
    expect(result.log).toContain(`::add-mask::${SIM_API_KEY}`)
    expect(result.log).toContain(`::add-mask::${TOKEN}`)
    expect(visible(result)).not.toContain(SIM_API_KEY)
    expect(visible(result)).not.toContain(TOKEN)
    expect(result.summary).toContain('The agent opened a pull request')
    // GITHUB_STATE holds the finished comment, for the post step.
    const saved = JSON.parse(result.state.comment as string)
    expect(saved).toMatchObject({ issue: 7, final: true, job: { id: result.outputs.jobId } })
    const comments = gh.commentsOn(7)
    expect(comments).toHaveLength(1)
    expect(comments[0]?.id).toBe(saved.commentId)
    expect(comments[0]?.body).toContain(`opened a pull request: [${result.outputs.prLink}]`)
    expect(markerIn(comments[0]?.body, 7)).toEqual({
      job: result.outputs.jobId,
      run: String(runId),
      attempt: 1,
      step: ANY_STEP,
      project: SIM_PROJECT
    })
    expect(gh.requests.every(r => r.authorization === `token ${TOKEN}`)).toBe(true)
    expect(sim.requests('create')).toHaveLength(1)
  })

  it('exits 1 on a failed job and on a timeout, with the outputs, summary and comment written', async () => {
    const { sim, gh } = services
    sim.planNext({ finalStatus: 'failed' })
    const failed = await run()
    expect(failed.code).toBe(1)
    expect(failed.outputs).toMatchObject({ status: 'failed', result: 'failed' })
    expect(failed.log).toMatch(
      /::error::Job job_\w+ ended as 'failed', and 'fail-on' includes 'failed'/
    )
    expect(failed.summary).toContain(
      `To see why, open job \`${failed.outputs.jobId}\` among the agent jobs of project \`${SIM_PROJECT}\``
    )
    expect(gh.commentsOn(7)[0]?.body).toContain('❌ **Mintlify agent** job failed.')
    sim.planNext({ durationMs: 60_000 })
    const timedOut = await run({ inputs: { timeout: '1s' } })
    expect(timedOut.code).toBe(1)
    expect(timedOut.outputs).toMatchObject({ status: 'active', result: 'timed-out' })
    expect(timedOut.summary).toContain(
      `To wait for it, run the action again with \`job-id: ${timedOut.outputs.jobId}\`.`
    )
  })

  it('stops at SIGTERM while waiting, says cancelled in the comment, and exits 1', async () => {
    const { sim, gh } = services
    sim.planNext({ durationMs: 60_000 })
    const running = startAction(options())
    await running.waitFor(/::group::Waiting for job/)
    running.child.kill('SIGTERM')
    const result = await running.done
    expect(result.code).toBe(1)
    expect(result.outputs.result).toBe('cancelled')
    expect(result.log).toMatch(/::error::The run was cancelled while waiting for job job_\w+/)
    expect(gh.commentsOn(7)[0]?.body).toContain('🛑 The workflow run was cancelled')
  })

  it('stops at SIGINT during the create request, saying the job may exist', async () => {
    const { sim } = services
    // The service never answers the create: the run ends only at the signal.
    sim.inject({ route: 'create', kind: 'delay', ms: Infinity })
    const sent = new Promise<void>(resolve => {
      const stop = sim.onRequest(exchange => {
        if (exchange.route !== 'create') return
        stop()
        resolve()
      })
    })
    const running = startAction(options({ inputs: { comment: 'false' } }))
    await sent
    running.child.kill('SIGINT')
    const result = await running.done
    expect(result.code).toBe(1)
    expect(result.outputs.result).toBe('cancelled')
    expect(result.log).toMatch(
      /::error::Cancelled while waiting for the answer to the request to create/
    )
  })

  it('hands GITHUB_STATE to the post step as STATE_*: it finalises the comment of a killed main step', async () => {
    const { sim, gh, clock } = services
    sim.planNext({ durationMs: 1500 })
    const running = startAction(options())
    await running.waitFor(/::group::Waiting for job/)
    running.child.kill('SIGKILL')
    const killed = await running.done
    expect(killed.signal).toBe('SIGKILL')
    expect(gh.commentsOn(7)[0]?.body).toContain('is working on this')
    expect(killed.state.comment).toBeDefined()
    // The job goes on without us (the simulator's clock moves on); the post step reads it once.
    await clock.sleep(1600)
    const post = await run({ entry: 'dist/post/index.js', state: killed.state })
    expect(post.code).toBe(0)
    expect(post.log).toMatch(/Updated the comment on #7: job job_\w+ is completed \(pr-opened\)\./)
    expect(gh.commentsOn(7)[0]?.body).toContain('opened a pull request')
    expect(gh.commentsOn(7)).toHaveLength(1)
  })

  it('runs the post step silently when the main step saved no state', async () => {
    const { gh } = services
    const post = await run({ entry: 'dist/post/index.js' })
    expect(post.code).toBe(0)
    expect(post.log).toBe('')
    expect(gh.requests).toHaveLength(0)
  })
})
