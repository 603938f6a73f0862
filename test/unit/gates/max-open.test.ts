import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FoldContext } from '../../../src/changes/fold.js'
import { maxOpen } from '../../../src/changes/gates/max-open.js'
import { docsPulls } from '../../../src/agent/docs-repository.js'
import { GitHubSession } from '../../../src/github/session.js'
import type { AgentJob } from '../../../src/mintlify/agent-jobs.js'
import { type LedgerJob, emptyProject } from '../../../src/records/ledger.js'
import { FakeGitHub } from '../../simulator/fake-github.js'
import {
  NOW,
  SERVER,
  TestLedger,
  batchOf,
  decidedInput,
  jobsService,
  pull,
  settingsOf
} from '../../support/gate-inputs.js'

let gh: FakeGitHub
let session: GitHubSession
beforeAll(async () => {
  gh = await FakeGitHub.start()
})
afterAll(async () => {
  await gh.close()
})
afterEach(async () => {
  await session?.close()
  gh.reset()
})

const link = (n: number) => `${SERVER}/acme/docs/pull/${n}`
const job = (id: string, state: string, prLink?: string): LedgerJob => ({
  id,
  state,
  prLink,
  startedAt: NOW - 3_600_000,
  changes: [],
  moreChanges: 0
})

/** max-open over these ledger jobs, the service knowing `jobs` and GitHub the docs pull requests. */
function input(ledgerJobs: LedgerJob[], max: number, jobs: AgentJob[] = [], over = {}) {
  session = new GitHubSession()
  const service = jobsService(jobs)
  const fold: Partial<FoldContext> = {
    readJob: service.readJob,
    docs: docsPulls({ docsToken: 'ghs_docs' }, gh.url, { session })
  }
  const ledger = new TestLedger({ ...emptyProject(), jobs: ledgerJobs })
  const gateInput = decidedInput({ settings: settingsOf({ maxOpen: max }), ledger, ...over }, fold)
  return { gateInput, ledger, service }
}

const docsPull = (number: number, over: Partial<Parameters<FakeGitHub['pulls']['set']>[1]> = {}) =>
  gh.pulls.set(`acme/docs#${number}`, {
    number,
    state: 'open',
    createdAt: NOW - 86_400_000,
    ...over
  })

describe('the max-open gate', () => {
  it('passes a batch that folds into an open job, and any batch without max-open, reading nothing', async () => {
    const full = [job('job-1', 'open', link(1)), job('job-2', 'open', link(2))]
    const folded = input(full, 1, [], { decision: { info: 'fold', target: { jobId: 'job-2' } } })
    expect(await maxOpen.check(folded.gateInput)).toEqual({ kind: 'pass' })
    const unset = input(full, 1, [], { settings: settingsOf() })
    expect(await maxOpen.check(unset.gateInput)).toEqual({ kind: 'pass' })
    expect(gh.requests).toEqual([])
  })

  it('passes below the cap by the ledger alone', async () => {
    const { gateInput, service } = input([job('job-1', 'open', link(1)), job('job-0', 'merged')], 2)
    expect(await maxOpen.check(gateInput)).toEqual({ kind: 'pass' })
    expect(service.reads).toEqual([])
    expect(gh.requests).toEqual([])
  })

  it('at the cap, holds while the docs pull requests are open, naming them and the running job', async () => {
    docsPull(1)
    const { gateInput, ledger } = input(
      [job('job-1', 'open', link(1)), job('job-2', 'active')],
      2,
      [{ id: 'job-2', status: 'active' }],
      { batch: batchOf([pull(101), pull(102)]) }
    )
    expect(await maxOpen.check(gateInput)).toEqual({
      kind: 'hold',
      why: `At 'max-open: 2': 2 docs pull requests of this project open or on the way (job job-2 (running), ${link(1)}). 2 changes wait on the dashboard; the waiting changes go into one job together once one is merged or closed.`,
      // On an empty ledger the range keeps its start, so that later changes join the batch.
      written: { base: 'a'.repeat(40) }
    })
    expect(ledger.updates).toEqual([
      { jobId: 'job-1', state: 'open', prLink: link(1), prCreatedAt: NOW - 86_400_000 }
    ])
  })

  it('frees the place of a docs pull request merged or closed by hand, and of a job that ended without one', async () => {
    docsPull(1, { state: 'closed', merged: true, mergedAt: NOW - 1000, closedAt: NOW - 1000 })
    docsPull(2, { state: 'closed', merged: false, closedAt: NOW - 2000 })
    const { gateInput, ledger } = input(
      [job('job-1', 'open', link(1)), job('job-2', 'open', link(2)), job('job-3', 'active')],
      3,
      [{ id: 'job-3', status: 'completed' }]
    )
    expect(await maxOpen.check(gateInput)).toEqual({ kind: 'pass' })
    expect(ledger.updates).toEqual([
      { jobId: 'job-3', state: 'ended' },
      { jobId: 'job-2', state: 'closed', prCreatedAt: NOW - 86_400_000, endedAt: NOW - 2000 },
      { jobId: 'job-1', state: 'merged', prCreatedAt: NOW - 86_400_000, endedAt: NOW - 1000 }
    ])
  })

  it('reads the docs pull request of a job that opened one since the ledger last saw it', async () => {
    docsPull(4)
    const { gateInput, ledger } = input([job('job-4', 'active')], 1, [
      { id: 'job-4', status: 'completed', prLink: link(4) }
    ])
    expect(await maxOpen.check(gateInput)).toMatchObject({
      kind: 'hold',
      why: expect.stringContaining(
        `1 docs pull request of this project open or on the way (${link(4)})`
      )
    })
    expect(ledger.updates).toMatchObject([{ jobId: 'job-4', state: 'open', prLink: link(4) }])
  })

  it('counts what it cannot read as open, and says so, with what to grant when GitHub refused', async () => {
    gh.failures.set('pull', 404)
    const elsewhere = 'https://gitlab.example/acme/docs/-/merge_requests/3'
    const { gateInput } = input(
      [job('job-1', 'open', link(1)), job('job-2', 'active'), job('job-3', 'open', elsewhere)],
      3
    )
    expect(await maxOpen.check(gateInput)).toMatchObject({
      kind: 'hold',
      why: expect.stringContaining('3 docs pull requests of this project open or on the way')
    })
    expect(gateInput.notices).toEqual([
      `Could not read job job-2: The service knows no job job-2; ${link(1)}: HTTP 404: counted as open for 'max-open'. Give 'docs-token' read access to the pull requests of acme/docs.`
    ])
    // Only the service could not say: there is nothing to grant on GitHub.
    const unknown = input([job('job-2', 'active')], 1)
    await maxOpen.check(unknown.gateInput)
    expect(unknown.gateInput.notices).toEqual([
      "Could not read job job-2: The service knows no job job-2: counted as open for 'max-open'."
    ])
  })

  it('takes the fold decision’s fresh look at its job instead of reading it again', async () => {
    const seenMerged = input(
      [job('job-1', 'open', link(1)), job('job-2', 'open', link(2))],
      2,
      [],
      {
        decision: { info: 'merged', seen: { jobId: 'job-2', state: 'merged' } }
      }
    )
    expect(await maxOpen.check(seenMerged.gateInput)).toEqual({ kind: 'pass' })
    const seenOpen = input([job('job-1', 'active')], 1, [], {
      decision: { info: 'running', seen: { jobId: 'job-1', state: 'active' } }
    })
    expect(await maxOpen.check(seenOpen.gateInput)).toMatchObject({ kind: 'hold' })
    expect(seenOpen.service.reads).toEqual([])
  })

  it('reads ten jobs at most, the newest first, and counts the rest as open', async () => {
    const many = Array.from({ length: 12 }, (_, i) => job(`job-${i}`, 'active'))
    const { gateInput, service } = input(
      many,
      12,
      many.map(j => ({ id: j.id, status: 'active' }))
    )
    expect(await maxOpen.check(gateInput)).toMatchObject({ kind: 'hold' })
    expect(service.reads).toEqual(
      many
        .slice(2)
        .reverse()
        .map(j => j.id)
    )
  })

  it('keeps the approval of this run’s tick with the held batch', async () => {
    const { gateInput } = input([job('job-1', 'active')], 1, [{ id: 'job-1', status: 'active' }], {
      approvedBy: 'lead'
    })
    expect(await maxOpen.check(gateInput)).toMatchObject({
      written: { approval: { approvedBy: 'lead', approvedAt: NOW } }
    })
  })
})
