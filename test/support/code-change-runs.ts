import { type ProjectLedger, readDashboardState } from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import {
  type FakeComment,
  type FakeFile,
  FakeGitHub,
  type FakeIssue,
  type FakePull
} from '../simulator/fake-github.js'
import { type JobPlan, SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import type { RunOptions } from './run-action.js'

/** github-token and docs-token of the runs. */
export const TOKEN = 'ghs_code_token_value'
export const DOCS_TOKEN = 'ghs_docs_token_value'
/**
 * Who the tokens are, as GitHub names them: github-token is GITHUB_TOKEN (`github-actions[bot]`,
 * the fake's default), docs-token an App's installation token (`<slug>[bot]`), never the same.
 */
export const DOCS_APP = { login: 'acme-docs-writer[bot]', type: 'Bot' } as const
/** The code repository the runs belong to. */
export const APP = 'acme/app'
/** The payload's `repository` as GitHub sends it: it names the default branch, main. */
export const REPOSITORY = { full_name: APP, default_branch: 'main' }

/** Issue #7 of acme/app labelled for the agent by a writer: a job a person asked for (`issues`). */
export const labelledIssue = (): Record<string, unknown> => ({
  action: 'labeled',
  label: { name: 'docs-agent' },
  issue: {
    number: 7,
    title: 'Document the retry options',
    body: 'The client gained retries.',
    html_url: `https://github.com/${APP}/issues/7`
  },
  repository: REPOSITORY,
  sender: { login: 'maintainer', type: 'User' }
})

/** The changed files of pull request #42: a modification with a patch, an addition, a rename. */
export const CHANGED_FILES: FakeFile[] = [
  { filename: 'src/client.ts', additions: 30, deletions: 4, patch: '@@ -1,2 +1,3 @@\n+retries' },
  { filename: 'src/retry.ts', status: 'added', additions: 80, deletions: 0 },
  { filename: 'src/old.ts', status: 'renamed', previous_filename: 'src/legacy.ts' }
]

/** One run of the agent on a code change: the event and what differs from the defaults. */
export interface ChangeRun {
  /** The webhook payload; a merged pull request #42 by default. */
  event?: unknown
  /** GITHUB_EVENT_NAME; pull_request by default. */
  eventName?: string
  inputs?: Record<string, string>
  /**
   * The action that runs, as its bundle: by default the main action for an issue (but an edit,
   * perhaps a tick on the dashboard), a comment or a manual or scheduled prompt, the review
   * sub-action for a review, and the changes sub-action for the rest.
   */
  entry?: string
  /** GITHUB_RUN_ATTEMPT; 1 by default. */
  attempt?: number
  /** More runner variables, over the GITHUB_* ones set here. */
  env?: Record<string, string>
}

/**
 * The simulator and the fake GitHub that runs on code changes (merged pull requests and pushes)
 * talk to, and the step such a run gets: inputs, event and the runner's GITHUB_* variables. The
 * same for the in-process suite and the bundle's smoke tests.
 */
export class CodeChangeServers {
  /** GITHUB_RUN_ID of the next run; the action's markers tell runs apart by it. */
  runId = 9000

  private constructor(
    readonly sim: Simulator,
    readonly gh: FakeGitHub
  ) {}

  /** `now`: the simulator's clock (give it the runs' VirtualClock's `wallNow`). */
  static async start(
    options: { now?: () => number; projects?: string[]; job?: Partial<JobPlan> } = {}
  ): Promise<CodeChangeServers> {
    const sim = await Simulator.start({
      job: { durationMs: 300, ...options.job },
      now: options.now,
      ...(options.projects ? { projects: options.projects } : {})
    })
    const gh = await FakeGitHub.start({ now: options.now, tokenUsers: { [DOCS_TOKEN]: DOCS_APP } })
    return new CodeChangeServers(sim, gh)
  }

  async close(): Promise<void> {
    await this.sim.close()
    await this.gh.close()
  }

  /** Both servers emptied and a new run id, for the next test. */
  reset(): void {
    this.sim.reset()
    this.gh.reset()
    this.runId++
    this.lastMerged = 100
  }

  /** The number of the pull request mergeNext merged last; the first is #101. */
  private lastMerged = 100

  /**
   * The next pull request of acme/app (#101, #102, …) merged into main now, as a squash commit
   * GitHub links to it, as `over` changes it: what the dashboard's ledger reads back.
   */
  mergeNext(over: Partial<FakePull> = {}): FakePull {
    const number = ++this.lastMerged
    const pull = this.gh.addPull(APP, {
      number,
      title: `Change ${number}`,
      body: `What change ${number} does.`,
      files: [{ filename: `src/feature${number}.ts`, additions: 10 }],
      ...over
    })
    this.gh.mergePull(APP, pull)
    return pull
  }

  /** The merged pull request's event, naming the default branch: a run of the ledger. */
  mergedEvent(p: FakePull): Record<string, unknown> {
    return this.merged(p, 'closed', REPOSITORY)
  }

  /** The docs agent dashboard issues of acme/app. */
  dashboards(): FakeIssue[] {
    return [...this.gh.issues.values()].filter(i => i.labels.includes('docs-agent-dashboard'))
  }

  /** A project's part of the ledger, as the action signed it in `issue` (the first dashboard). */
  ledgerOf(project = SIM_PROJECT, issue = this.dashboards()[0]): ProjectLedger | undefined {
    const signer = new RecordSigner(SIM_API_KEY)
    const read = readDashboardState(issue?.body ?? '', signer, APP, issue?.number ?? 0)
    if (!read.ok) throw new Error(`no ledger: ${read.why}`)
    return read.ledger.projects[project]
  }

  /** Pull request #42 of acme/app with CHANGED_FILES, merged, as `over` changes it. */
  pull(over: Partial<FakePull> = {}): FakePull {
    return this.gh.addPull(APP, {
      number: 42,
      title: 'Add retry options to the client',
      body: 'The client gained `retries` and `backoff`.',
      labels: ['feature'],
      files: CHANGED_FILES,
      ...over
    })
  }

  /**
   * The pull_request event of `p` (closed by default), sent by @maintainer. With `repository` the
   * payload names the default branch, as GitHub's does; its `merge_commit_sha` is the commit
   * FakeGitHub.mergePull made, when it made one.
   */
  merged(
    p: FakePull,
    action = 'closed',
    repository?: Record<string, unknown>
  ): Record<string, unknown> {
    return {
      action,
      number: p.number,
      pull_request: {
        ...this.gh.pullView(APP, p.number),
        ...(p.mergeCommit ? { merge_commit_sha: p.mergeCommit } : {})
      },
      ...(repository ? { repository } : {}),
      sender: { login: 'maintainer', type: 'User' }
    }
  }

  /**
   * A push of `ref` from `before` to `after` by @maintainer, in a payload that names the default
   * branch; `over` changes or adds fields (`forced`, `created`, `sender`, …).
   */
  push(
    ref: string,
    before: string,
    after: string,
    over: Record<string, unknown> = {}
  ): Record<string, unknown> {
    return {
      ref,
      before,
      after,
      compare: `https://github.com/${APP}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
      repository: REPOSITORY,
      sender: { login: 'maintainer', type: 'User' },
      pusher: { name: 'maintainer' },
      ...over
    }
  }

  /** The step of a run: what runAction and runInProcess take. */
  step(r: ChangeRun = {}): RunOptions {
    return {
      entry: r.entry ?? entryOf(r.eventName ?? 'pull_request', r.event, r.inputs),
      inputs: {
        'api-key': SIM_API_KEY,
        'project-id': SIM_PROJECT,
        'api-url': this.sim.url,
        'github-token': TOKEN,
        'poll-interval': '1s',
        ...r.inputs
      },
      event: r.event ?? this.merged(this.pull()),
      env: {
        GITHUB_EVENT_NAME: r.eventName ?? 'pull_request',
        GITHUB_REPOSITORY: APP,
        GITHUB_RUN_ID: String(this.runId),
        GITHUB_RUN_ATTEMPT: String(r.attempt ?? 1),
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_API_URL: this.gh.url,
        ...r.env
      }
    }
  }
}

function entryOf(eventName: string, event: unknown, inputs: Record<string, string> = {}): string {
  const action = (event as { action?: unknown } | undefined)?.action
  if (
    eventName === 'issue_comment' ||
    (eventName === 'issues' && action !== 'edited') ||
    (['workflow_dispatch', 'schedule'].includes(eventName) && inputs.prompt !== undefined)
  )
    return 'dist/index.js'
  if (eventName === 'pull_request_review') return 'dist/review/index.js'
  return 'dist/changes/index.js'
}

/** A docs pull request's comments but the one naming its job (review follow-ups' record). */
export const besideRecord = (comments: FakeComment[]): FakeComment[] =>
  comments.filter(c => !c.body.includes('<!-- mintlify-agent-docs-pr '))
