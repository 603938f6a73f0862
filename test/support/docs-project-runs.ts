import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type ProjectLedger, readDashboardState } from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import type { FakeIssue, FakePull } from '../simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import type { CodeChangeServers } from './code-change-runs.js'
import { ROOT, type RunOptions } from './run-action.js'

/** The docs repository the project's workflow runs in. */
export const DOCS = 'acme/docs'
/** The code repositories it documents. */
export const CODE = ['acme/api', 'acme/cli', 'acme/web'] as const

/** GitHub's published repository_dispatch examples (@octokit/webhooks-examples). */
export const PUBLISHED_DISPATCHES = (
  JSON.parse(
    readFileSync(
      path.join(ROOT, 'node_modules/@octokit/webhooks-examples/api.github.com/index.json'),
      'utf8'
    )
  ) as { name: string; examples: Record<string, unknown>[] }[]
).find(e => e.name === 'repository_dispatch')?.examples as Record<string, unknown>[]
/** The first, the base of ours. */
const PUBLISHED_DISPATCH = PUBLISHED_DISPATCHES[0] as Record<string, unknown>

/**
 * A docs project fed by several code repositories, over the servers of the code-change runs: the
 * code repositories' merges, the dispatches their workflows send to the docs repository, and the
 * docs repository's runs (in-process or as the bundle) with `code-repositories`.
 */
export class DocsProject {
  private readonly numbers = new Map<string, number>()

  constructor(
    readonly servers: CodeChangeServers,
    /** The wall clock the merges are dated by. */
    private readonly now: () => number,
    readonly repositories: readonly string[] = CODE
  ) {}

  /** The same project listing `repositories` from now on: each repository's merges numbered on. */
  listing(repositories: readonly string[]): DocsProject {
    const next = new DocsProject(this.servers, this.now, repositories)
    for (const [repo, number] of this.numbers) next.numbers.set(repo, number)
    return next
  }

  /** Each repository's first commit on main, as a repository has before anything is documented. */
  init(): void {
    for (const repo of this.repositories)
      this.servers.gh.commitTo(repo, { message: `Initial commit of ${repo}` })
  }

  /** The next pull request of `repo` (#1, #2, … in each repository) merged into main now. */
  merge(repo: string, over: Partial<FakePull> = {}): FakePull {
    const number = (this.numbers.get(repo) ?? 0) + 1
    this.numbers.set(repo, number)
    const pull = this.servers.gh.addPull(repo, {
      number,
      title: `${repo} change ${number}`,
      body: `What ${repo} change ${number} does.`,
      files: [{ filename: `src/feature${number}.ts`, additions: 5 }],
      mergedAt: this.now(),
      ...over
    })
    this.servers.gh.mergePull(repo, pull)
    return pull
  }

  /**
   * The repository_dispatch a code repository's merge workflow sends to the docs repository
   * (`gh api repos/acme/docs/dispatches`): GitHub's published payload with our type and hint.
   */
  dispatch(repo: string, sha?: string, type = 'docs-agent'): Record<string, unknown> {
    return {
      ...structuredClone(PUBLISHED_DISPATCH),
      action: type,
      branch: 'main',
      client_payload: { repository: repo, ...(sha ? { sha } : {}) },
      repository: {
        ...(PUBLISHED_DISPATCH.repository as Record<string, unknown>),
        full_name: DOCS,
        name: 'docs',
        default_branch: 'main'
      },
      sender: { login: 'docs-dispatcher[bot]', id: 1, type: 'Bot' }
    }
  }

  /** The docs repository's step: `code-repositories` listing the project, on `eventName`. */
  step(
    event: Record<string, unknown>,
    inputs: Record<string, string> = {},
    eventName = 'repository_dispatch'
  ): RunOptions {
    this.servers.runId++
    return this.servers.step({
      event,
      eventName,
      inputs: { 'code-repositories': this.repositories.join('\n'), ...inputs },
      env: { GITHUB_REPOSITORY: DOCS }
    })
  }

  /** A scheduled catch-up of the docs repository (`changes: since-last`). */
  schedule(inputs: Record<string, string> = {}): RunOptions {
    return this.step({ schedule: '0 6 * * *' }, { changes: 'since-last', ...inputs }, 'schedule')
  }

  dashboards(): FakeIssue[] {
    return this.servers.dashboards()
  }

  /** The project's part of the docs repository's ledger. */
  ledger(project = SIM_PROJECT): ProjectLedger | undefined {
    const issue = this.dashboards()[0]
    const signer = new RecordSigner(SIM_API_KEY)
    const read = readDashboardState(issue?.body ?? '', signer, DOCS, issue?.number ?? 0)
    if (!read.ok) throw new Error(`no ledger: ${read.why}`)
    return read.ledger.projects[project]
  }

  /** Each repository's watermark in the ledger, by name. */
  watermarks(): Record<string, string> {
    return Object.fromEntries(
      Object.values(this.ledger()?.repositories ?? {}).map(m => [m.name, m.sha])
    )
  }

  /**
   * `login` ticks the first box of the dashboard that `box` names: the body changed as GitHub
   * changes it, and the docs repository's step for its `issues` `edited` event (with the body before).
   */
  tick(box: string, login: string, inputs: Record<string, string> = {}): RunOptions {
    const dashboard = this.dashboards()[0]
    if (!dashboard) throw new Error('no dashboard')
    const before = dashboard.body
    dashboard.body = before.replace(`- [ ] ${box}`, `- [x] ${box}`)
    if (dashboard.body === before) throw new Error(`no unticked box '${box}' on the dashboard`)
    const event = {
      action: 'edited',
      issue: this.servers.gh.issueView(dashboard, DOCS),
      changes: { body: { from: before } },
      repository: { full_name: DOCS, default_branch: 'main' },
      sender: { login, type: 'User' }
    }
    return this.step(event, inputs, 'issues')
  }

  /** The prompts the service was sent: new jobs' (`create`) or follow-ups' (`message`). */
  prompts(route: 'create' | 'message' = 'create'): string[] {
    return this.servers.sim.requests(route).map(e => (e.requestBody as { prompt: string }).prompt)
  }

  /** Every prompt sent so far, new jobs' and follow-ups'. */
  allPrompts(): string[] {
    return [...this.prompts('create'), ...this.prompts('message')]
  }

  /** The docs pull request of a job, as GitHub shows it in the docs repository. */
  docsPull(link: unknown, state: 'open' | 'merged'): FakePull {
    return this.servers.gh.addPull(DOCS, {
      number: Number(String(link).split('/').pop()),
      state: state === 'open' ? 'open' : 'closed',
      merged: state === 'merged',
      user: { login: 'mintlify[bot]', type: 'Bot' }
    })
  }
}
