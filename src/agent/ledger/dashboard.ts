import { type GitHubApi, type IssueRecord, RateLimitError } from '../../github/api.js'
import { ExplainedError } from '../../runner/errors.js'
import type { RecordSigner } from '../../records/record.js'
import { keepTicks, tickedBatches } from './approval-box.js'
import { type DashboardView, renderDashboard } from './dashboard-body.js'
import {
  DASHBOARD_LABEL,
  type Ledger,
  type ProjectLedger,
  emptyLedger,
  emptyProject,
  dashboardPlace,
  ledgerRecord,
  readLedger
} from '../../records/ledger.js'

/** What the dashboard needs of GitHub: the issues with its label, and writing one. */
export type DashboardIssues = Pick<GitHubApi, 'issuesWithLabel' | 'createIssue' | 'updateIssue'>

/** A body read this long ago (ms) is taken as current: another run's write in between is unlikely. */
const FRESH_MS = 5000

export interface DashboardOptions {
  title: string
  signer: RecordSigner
  view: Omit<DashboardView, 'now'>
  now: () => number
}

/**
 * The `Docs agent dashboard` issue: found in one request by its label, created on first need,
 * written only by this action (its state is signed, see ledger.ts), and read again before each
 * write so that an overlapping run's write is kept.
 */
export class Dashboard {
  /** What the user should hear about the dashboard itself (reopened, started afresh). */
  readonly notices: string[] = []
  private issue?: IssueRecord
  private body = ''
  private checked = false
  /** When the body was last read or written (options.now): a read this recent is read again for nothing. */
  private readAt = -Infinity

  private constructor(
    private readonly github: DashboardIssues,
    private readonly options: DashboardOptions,
    public ledger: Ledger
  ) {}

  /** The place a record is bound to: this repository's dashboard. */
  private get place(): string {
    return dashboardPlace(this.options.view.repository)
  }

  get url(): string | undefined {
    return this.issue?.url
  }

  /** The issue's number, once found or created. */
  get number(): number | undefined {
    return this.issue?.number
  }

  /** The body as last read from GitHub or written: what people see, their ticks included. */
  get text(): string {
    return this.body
  }

  /** The ledger of the repository, from the newest dashboard whose state this action signed. */
  static async open(github: DashboardIssues, options: DashboardOptions): Promise<Dashboard> {
    let issues: IssueRecord[]
    try {
      issues = await github.issuesWithLabel(DASHBOARD_LABEL)
    } catch (error) {
      throw dashboardError('read', error)
    }
    let unreadable: IssueRecord | undefined
    for (const issue of issues) {
      const read = readLedger(issue.body, options.signer, dashboardPlace(options.view.repository))
      if (!read.ok) {
        unreadable ??= issue
        continue
      }
      const dashboard = new Dashboard(github, options, read.ledger)
      dashboard.adopt(issue)
      return dashboard
    }
    const dashboard = new Dashboard(github, options, emptyLedger())
    if (unreadable) {
      dashboard.adopt(unreadable)
      dashboard.notices.push(
        `The dashboard ${unreadable.url} holds no state this action wrote with this API key (edited by hand, or written with another key): it starts afresh from this change.`
      )
    }
    return dashboard
  }

  private adopt(issue: IssueRecord): void {
    this.issue = issue
    this.body = issue.body
    this.readAt = this.options.now()
  }

  /** This project's part of the ledger as last read (a copy: changes go through `write`). */
  project(projectId: string): ProjectLedger {
    return structuredClone(this.ledger.projects[projectId] ?? emptyProject())
  }

  /**
   * Makes sure the dashboard can be written before anything is started: creates it, or reopens it
   * when closed by hand, or writes its title unchanged, which also reads its latest body. Without
   * `issues: write` the run stops here, having started nothing.
   */
  async ensureWritable(): Promise<void> {
    if (this.checked) return
    try {
      if (!this.issue) {
        const created = await this.github.createIssue(this.options.title, this.render(), [
          DASHBOARD_LABEL
        ])
        if (!created.labels.includes(DASHBOARD_LABEL))
          this.notices.push(
            `GitHub created the dashboard ${created.url} without its label '${DASHBOARD_LABEL}', so the next run may not find it: give the workflow 'issues: write'.`
          )
        this.adopt(created)
      } else {
        const reopen = this.issue.state !== 'open'
        if (reopen)
          this.notices.push(
            `The dashboard ${this.issue.url} was closed; it is reopened with its state.`
          )
        this.merge(
          await this.github.updateIssue(this.issue.number, {
            title: this.issue.title,
            ...(reopen ? { state: 'open' } : {})
          })
        )
      }
    } catch (error) {
      throw dashboardError('write', error)
    }
    this.checked = true
  }

  /**
   * Changes this project's part and writes the dashboard. With `reread`, the newest body is read
   * first and the change is made to it, so that another run's write in between is kept ('always':
   * even when read moments ago, as a person's tick may be that recent). A box of a
   * batch still waiting that someone ticked in the body last read stays ticked (its own run judges
   * it), unless `untick` (a refused tick undone).
   */
  async write(
    projectId: string,
    change: (project: ProjectLedger) => void,
    { reread, untick = false }: { reread: boolean | 'always'; untick?: boolean }
  ): Promise<void> {
    const apply = (): void => change((this.ledger.projects[projectId] ??= emptyProject()))
    try {
      if (!this.issue) {
        apply()
        this.adopt(
          await this.github.createIssue(this.options.title, this.render(), [DASHBOARD_LABEL])
        )
        this.checked = true
        return
      }
      const issue = this.issue
      // Read again unless this run read it moments ago (the check before the service's write).
      if (reread === 'always' || (reread && this.options.now() - this.readAt > FRESH_MS))
        this.merge(await this.github.updateIssue(issue.number, { title: issue.title }))
      apply()
      const ticked = untick ? [] : tickedBatches(this.body)
      this.adopt(
        await this.github.updateIssue(issue.number, { body: keepTicks(this.render(), ticked) })
      )
    } catch (error) {
      throw dashboardError('write', error)
    }
  }

  /** Takes the newest body's state when it verifies; otherwise keeps what this run holds. */
  private merge(latest: IssueRecord): void {
    const read = readLedger(latest.body, this.options.signer, this.place)
    if (read.ok) this.ledger = read.ledger
    this.adopt(latest)
  }

  private render(): string {
    const now = this.options.now()
    return [
      renderDashboard(this.ledger, { ...this.options.view, now }),
      ledgerRecord(this.ledger, this.options.signer, this.place, now)
    ].join('\n')
  }
}

function dashboardError(what: 'read' | 'write', error: unknown): ExplainedError {
  // Not a want of access: GitHub asked for a wait the step cannot give, and says so.
  if (error instanceof RateLimitError)
    return new ExplainedError(
      `Could not ${what} the docs agent dashboard issue, so nothing was started: ${error.message}`
    )
  const status = (error as { status?: unknown }).status
  const detail = typeof status === 'number' ? `HTTP ${status}` : (error as Error).message
  return new ExplainedError(
    `Could not ${what} the docs agent dashboard issue (${detail}), which records what was handed to the agent, so nothing was started. Give the workflow 'issues: write', or set 'dashboard: false' to run every change as its own job without a record.`
  )
}
