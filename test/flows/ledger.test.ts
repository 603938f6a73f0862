import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readLedger } from '../../src/agent/ledger/ledger.js'
import { RecordSigner } from '../../src/agent/record.js'
import type { FakeGitHub, FakeIssue, FakePull } from '../simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../simulator/server.js'
import { APP, type ChangeRun, CodeChangeServers } from '../support/code-change-runs.js'
import type { RunResult } from '../support/run-action.js'
import { runInProcess } from '../support/run-in-process.js'
import { VirtualClock } from '../support/virtual-clock.js'

const clock = new VirtualClock()
let servers: CodeChangeServers
let sim: Simulator
let gh: FakeGitHub
beforeAll(async () => {
  servers = await CodeChangeServers.start({ now: clock.wallNow })
  ;({ sim, gh } = servers)
})
afterAll(() => servers.close())
beforeEach(() => servers.reset())

const signer = new RecordSigner(SIM_API_KEY)
/** The repository's payload fields a real event carries: the ledger keeps the default branch. */
const repository = { full_name: APP, default_branch: 'main' }
let number = 100
/** A pull request merged into main now (a squash commit GitHub links to it). */
function mergeNext(over: Partial<FakePull> = {}): FakePull {
  const pull = gh.addPull(APP, {
    number: ++number,
    title: `Change ${number}`,
    body: `What change ${number} does.`,
    files: [{ filename: `src/feature${number}.ts`, additions: 10 }],
    ...over
  })
  gh.mergePull(APP, pull)
  return pull
}
const mergedEvent = (pull: FakePull) => ({
  action: 'closed',
  number: pull.number,
  pull_request: { ...gh.pullView(APP, pull.number), merge_commit_sha: pull.mergeCommit },
  repository,
  sender: { login: 'maintainer', type: 'User' }
})
const run = (r: ChangeRun = {}): Promise<RunResult> => runInProcess({ clock, ...servers.step(r) })
const runMerged = (pull: FakePull, r: ChangeRun = {}): Promise<RunResult> =>
  run({ event: mergedEvent(pull), ...r })
const prompts = (route: 'create' | 'message' = 'create'): string[] =>
  sim.requests(route).map(e => (e.requestBody as { prompt: string }).prompt)
const dashboards = (): FakeIssue[] =>
  [...gh.issues.values()].filter(i => i.labels.includes('docs-agent-dashboard'))
function ledgerOf(issue = dashboards()[0]) {
  const read = readLedger(issue?.body ?? '', signer, `${APP} dashboard`)
  if (!read.ok) throw new Error(`no ledger: ${read.why}`)
  return read.ledger.projects[SIM_PROJECT]
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
})
