import type { BatchPull, ChangeBatch } from '../../src/agent/batch.js'
import type { FoldDecision } from '../../src/agent/ledger/fold.js'
import type { FoldContext } from '../../src/changes/fold.js'
import type {
  BatchInput,
  DecidedInput,
  GateSettings,
  HeadInput,
  LedgerView
} from '../../src/changes/gates/gate.js'
import { budgetStates, tightest } from '../../src/agent/ledger/budget.js'
import { coveringRun } from '../../src/agent/ledger/ledger-session.js'
import type { JobBudget } from '../../src/policy/budget.js'
import type { DocsPullUpdate } from '../../src/agent/ledger/expiry.js'
import type { AgentJob } from '../../src/mintlify/agent-jobs.js'
import { type ProjectLedger, emptyProject } from '../../src/records/ledger.js'
import { silentLogger } from '../../src/runner/logger.js'
import { readPathFilter } from '../../src/policy/path-filter.js'
import { docsPulls } from '../../src/agent/docs-repository.js'
import { GitHubSession } from '../../src/github/session.js'

/** What the gate tests fix: 2026-11-24 12:00 UTC, a repository and its branch's head. */
export const NOW = Date.UTC(2026, 10, 24, 12)
export const HEAD = 'c'.repeat(40)
export const SERVER = 'https://github.com'

/** The ledger a gate reads, over a plain project, recording what the gates learnt on the way. */
export class TestLedger implements LedgerView {
  readonly seen: FoldDecision['seen'][] = []
  readonly updates: DocsPullUpdate[] = []
  resending?: string[]

  constructor(
    readonly project: ProjectLedger = emptyProject(),
    private readonly budget?: JobBudget,
    private readonly runId = 'run-2'
  ) {}

  coveredBy(head: string) {
    return coveringRun(this.project, head, this.runId)
  }

  budgetState() {
    return tightest(
      budgetStates(this.project.spend, { maxJobs: this.budget, creditsPerRun: 180 }, NOW)
    )
  }

  noteSeen(seen?: FoldDecision['seen']): void {
    this.seen.push(seen)
  }

  noteUpdates(updates: DocsPullUpdate[]): void {
    this.updates.push(...updates)
  }
}

export const pull = (number: number, over: Partial<BatchPull> = {}): BatchPull => ({
  number,
  title: `Change ${number}`,
  body: '',
  url: `${SERVER}/acme/app/pull/${number}`,
  author: 'dev',
  authorIsBot: false,
  base: 'main',
  merged: true,
  state: 'MERGED',
  labels: [],
  changedFiles: 1,
  additions: 1,
  deletions: 0,
  files: [{ path: 'src/a.ts', additions: 1, deletions: 0, status: 'modified' }],
  filesComplete: true,
  ...over
})

export const batchOf = (pulls: BatchPull[], over: Partial<ChangeBatch> = {}): ChangeBatch => ({
  repository: 'acme/app',
  branch: 'main',
  url: `${SERVER}/acme/app/compare/${'b'.repeat(12)}...${HEAD.slice(0, 12)}`,
  head: HEAD,
  pulls,
  commits: [],
  skipped: [],
  leftOut: [],
  ...over
})

/** The change settings as the inputs' defaults make them, with a dashboard. */
export const settingsOf = (over: Partial<GateSettings> = {}): GateSettings => ({
  label: '',
  dashboard: true,
  fold: 'open-pr',
  skipLabel: 'no-docs',
  includeDiff: false,
  docsToken: '',
  dashboardTitle: 'Docs agent dashboard',
  paths: readPathFilter('paths', '', 'paths-ignore', ''),
  creditsPerRun: 180,
  dryRun: false,
  ...over
})

/** A service that knows these jobs; any other job id fails to read, as the service's 404 would. */
export function jobsService(jobs: AgentJob[]): {
  readJob: FoldContext['readJob']
  reads: string[]
} {
  const reads: string[] = []
  return {
    reads,
    readJob: async id => {
      reads.push(id)
      const job = jobs.find(j => j.id === id)
      if (!job) throw new Error(`The service knows no job ${id}.`)
      return job
    }
  }
}

export function headInput(over: Partial<HeadInput> = {}): HeadInput {
  return {
    plan: { kind: 'range', head: HEAD, branch: 'main' },
    head: { sha: HEAD, branch: 'main' },
    ledger: new TestLedger(),
    settings: settingsOf(),
    reads: {
      emptyBatch: (head, branch) =>
        batchOf([], { head, branch, url: `${SERVER}/acme/app/commit/${head}` }),
      prompt: async (batch, followUp) =>
        `${followUp ? 'Follow-up' : 'Document'}: ${batch.pulls.map(p => p.title).join(', ')}`,
      parentOf: async () => 'a'.repeat(40)
    },
    now: () => NOW,
    log: silentLogger,
    notices: [],
    ...over
  }
}

export function batchInput(
  over: Partial<BatchInput> = {},
  fold: Partial<FoldContext> = {}
): BatchInput {
  return {
    ...headInput(over),
    batch: batchOf([pull(101)]),
    foldContext: {
      readJob: jobsService([]).readJob,
      serverUrl: SERVER,
      // Nothing listens there: a gate that reads a docs pull request must be given its own.
      docs: docsPulls({ docsToken: 'ghs_unread' }, 'http://127.0.0.1:9', {
        session: new GitHubSession()
      }),
      ...fold
    },
    ...over
  }
}

export function decidedInput(
  over: Partial<DecidedInput> = {},
  fold: Partial<FoldContext> = {}
): DecidedInput {
  return { ...batchInput(over, fold), decision: { info: 'A new job.' }, ...over }
}
