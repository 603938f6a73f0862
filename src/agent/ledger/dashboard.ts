import {
  type GitHubApi,
  type IssueRecord,
  RateLimitError,
  describeGitHubError,
  gitHubFailure,
  whatToDo
} from '../../github/api.js'
import {
  type DashboardIssue,
  authoredIssues,
  labelledIssues,
  sameActor,
  withOlderEdits
} from '../../github/dashboard-issues.js'
import { ExplainedError } from '../../runner/errors.js'
import type { RecordSigner } from '../../records/record.js'
import { keepTicks, tickedBatches, tickedResends } from './approval-box.js'
import { type DashboardView, renderDashboard } from './dashboard-body.js'
import { Redactor } from '../../runner/redact.js'
import {
  type DashboardChoice,
  NewerLedgerError,
  chooseDashboard,
  needsOlderEdits,
  newerLedger
} from './dashboard-choice.js'
import {
  DASHBOARD_LABEL,
  type Ledger,
  MAX_WRITERS,
  type ProjectLedger,
  emptyProject,
  dashboardPlace,
  lacksAny,
  ledgerRecord,
  mergedLedger,
  readDashboardState
} from '../../records/ledger.js'
import { GitHubClock } from './github-clock.js'

/** What the dashboard needs of GitHub: finding its issue (GraphQL), reading and writing one. */
export type DashboardIssues = Pick<
  GitHubApi,
  'graphql' | 'createIssue' | 'getIssue' | 'updateIssue'
>

/**
 * A write that records a start is read back this long after (ms on the run's clock): a run that
 * read the dashboard just before it and wrote just after would have written over it. Two writes
 * of one token are a second apart (github/limits.ts), and an answer takes about as long.
 */
const CONFIRM_AFTER_MS = 3000
/** Times such a write is made again when another run's write took it away. */
const CONFIRM_TRIES = 3

export interface DashboardOptions {
  title: string
  signer: RecordSigner
  /**
   * The run's secrets (the key, the tokens): a title or a note that holds one, pasted into a pull
   * request, is written neither on the page nor in its state, in any escaped form.
   */
  secrets: readonly (string | undefined)[]
  view: Omit<DashboardView, 'now'>
  /** The runner's clock (epoch ms). */
  now: () => number
  /** A pause on the run's clock: without one, a write that records a start is not read back. */
  sleep?: (ms: number) => Promise<void>
  /**
   * How the run could go without a ledger, when it can (a change run in its own repository: "set
   * 'dashboard: false' …"): offered beside the fix when the dashboard cannot be read or written.
   */
  withoutLedger?: string
  /** Says what the run must not pass silently (a deleted state): a warning in the log. */
  warn?: (message: string) => void
}

/**
 * The `Docs agent dashboard` issue: found in one request by its label, created on first need,
 * written only by this action (its state is signed, see ledger.ts), and read again before each
 * write so that an overlapping run's write is kept: GitHub has no conditional write for an issue,
 * so each write is a compare-and-set by hand (read, merge what another run wrote since, write).
 */
export class Dashboard {
  /** What the user should hear about the dashboard itself (reopened, started afresh). */
  readonly notices: string[] = []
  private issue?: IssueRecord
  private body = ''
  private checked = false
  /** Its issue holds no state this action can read: what earlier runs recorded is unknown. */
  stateUnread = false
  /** The issue was found again without its label: the label goes back on with the first write. */
  private relabel = false
  /** Who the action is, as GitHub named it when no dashboard was found: said when one is opened. */
  private viewer = ''
  /** GitHub's clock, read off its answers: the state is stamped on it. */
  private readonly githubClock: GitHubClock
  /** The state this run last read or wrote (stateKey): another one in the body is another run's. */
  private known?: string

  private readonly redactor: Redactor

  private constructor(
    private readonly github: DashboardIssues,
    private readonly options: DashboardOptions,
    public ledger: Ledger
  ) {
    this.redactor = new Redactor(options.secrets)
    this.githubClock = new GitHubClock(options.now)
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

  /**
   * The ledger of the repository: from the newest state this action wrote, in an issue it opened
   * (see dashboard-choice.ts): among the labelled issues and the action's own issues of the
   * dashboard's title, always both (two requests), as a label can be moved by anyone with triage
   * rights: off the current dashboard, back onto a stale one or onto another issue.
   */
  static async open(github: DashboardIssues, options: DashboardOptions): Promise<Dashboard> {
    const [owner = '', repo = ''] = options.view.repository.split('/')
    let choice: DashboardChoice
    let viewer: string
    const notices: string[] = []
    try {
      const labelled = await labelledIssues(github.graphql, { owner, repo }, DASHBOARD_LABEL)
      viewer = labelled.viewer ?? ''
      if (!viewer)
        throw new ExplainedError(
          `GitHub did not say who 'github-token' is, so the docs agent dashboard cannot be told from a copy and nothing was started.`
        )
      const ctx = {
        signer: options.signer,
        repository: options.view.repository,
        viewer,
        label: DASHBOARD_LABEL,
        title: options.title
      }
      const withEdits = (issues: DashboardIssue[]) =>
        withWritersEdits(github.graphql, { owner, repo }, issues, ctx)
      const labelledFound = await withEdits(labelled.issues)
      let own: DashboardIssue[]
      try {
        const authored = await authoredIssues(
          github.graphql,
          { owner, repo },
          options.title,
          viewer
        )
        // Those found by their label too are read already.
        own = await withEdits(authored.filter(i => !labelledFound.some(l => l.number === i.number)))
      } catch (error) {
        // GitHub's search can fail or lag: with the labelled dashboard found and verified, the
        // run goes on with it, saying what it could not look for.
        const found = chooseDashboard(labelledFound, ctx)
        if (!found.issue || found.stateUnread || found.relabel) throw error
        notices.push(
          `Could not search ${options.view.repository} for the dashboard by its author and title (${describeGitHubError(error)}): the labelled dashboard ${found.issue.url} is used. A dashboard whose label was taken off is looked for again on the next run.`
        )
        own = []
      }
      choice = chooseDashboard([...labelledFound, ...own], ctx)
    } catch (error) {
      if (error instanceof ExplainedError) throw error
      throw dashboardError('read', error, options)
    }
    const dashboard = new Dashboard(github, options, choice.ledger)
    dashboard.notices.push(...notices, ...choice.notices)
    if (choice.issue) dashboard.adopt(choice.issue)
    dashboard.relabel = choice.relabel
    dashboard.viewer = viewer
    dashboard.stateUnread = choice.stateUnread ?? false
    if (choice.lost)
      if (options.warn) options.warn(choice.lost.warning)
      else dashboard.notices.push(choice.lost.warning)
    if (choice.issue && !choice.stateUnread) dashboard.known = stateKey(choice.ledger)
    return dashboard
  }

  private adopt(issue: IssueRecord): void {
    this.issue = issue
    this.body = issue.body
    this.githubClock.learn(issue)
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
      if (!this.issue) await this.create()
      else {
        const reopen = this.issue.state !== 'open'
        if (reopen)
          this.notices.push(
            `The dashboard ${this.issue.url} was closed; it is reopened with its state.`
          )
        this.merge(
          await this.github.updateIssue(this.issue.number, {
            title: this.issue.title,
            ...(reopen ? { state: 'open' } : {}),
            ...this.labelBack()
          })
        )
      }
    } catch (error) {
      throw dashboardError('write', error, this.options)
    }
    this.checked = true
  }

  /**
   * Changes this project's part and writes the dashboard, as a compare-and-set: the newest body is
   * read first (a read, no write), what another run wrote since this run's last read or write is
   * merged in (mergedLedger), and the change is made to that. With `confirm` (a write that records
   * a start, which `max-jobs` counts), the body is read again a moment later: a run that read just
   * before this write and wrote just after took it away, so it is merged and written again, a few
   * times at most. A box of a batch still waiting that someone ticked in the body last read stays
   * ticked (its own run judges it), unless `untick` (a refused tick undone).
   */
  async write(
    projectId: string,
    change: (project: ProjectLedger) => void,
    { untick = false, confirm = false }: { untick?: boolean; confirm?: boolean } = {}
  ): Promise<void> {
    try {
      if (!this.issue) {
        change((this.ledger.projects[projectId] ??= emptyProject()))
        await this.create()
        this.checked = true
        return
      }
      const number = this.issue.number
      this.merge(await this.github.getIssue(number))
      change((this.ledger.projects[projectId] ??= emptyProject()))
      await this.put(number, untick)
      const sleep = this.options.sleep
      for (let tries = 0; confirm && sleep && tries < CONFIRM_TRIES; tries++) {
        // Written already: a cancel during the pause only ends the check.
        if (
          !(await sleep(CONFIRM_AFTER_MS).then(
            () => true,
            () => false
          ))
        )
          break
        const written = this.ledger
        const theirs = this.merge(await this.github.getIssue(number))
        // Another run wrote over this run's write, from what it read before it: both are kept.
        if (!theirs || !lacksAny(theirs, written)) break
        await this.put(number, untick)
      }
    } catch (error) {
      throw dashboardError('write', error, this.options)
    }
  }

  /**
   * Writes the body: the page and the state rendered anew for each attempt GitHub's client sends
   * (after a rate limit's wait, the state says when it reached GitHub), and once more when GitHub
   * recorded it later than that all the same (a slow answer).
   */
  private async put(number: number, untick: boolean): Promise<void> {
    const ticked = untick ? [] : tickedBatches(this.body)
    const resends = untick ? [] : tickedResends(this.body)
    const body = () => ({
      body: keepTicks(this.render(number), ticked, resends),
      ...this.labelBack()
    })
    let answer = await this.github.updateIssue(number, body)
    this.adopt(answer)
    if (this.githubClock.recordedLate(answer, this.ledger.writtenAt)) {
      answer = await this.github.updateIssue(number, body)
      this.adopt(answer)
    }
    this.known = stateKey(this.ledger)
  }

  /**
   * Opens the dashboard: the issue first, with the page but no state, as the state names the issue
   * it is written in (a copy elsewhere is refused), then the state.
   */
  private async create(): Promise<void> {
    const now = this.options.now()
    this.ledger = this.redactor.value(this.ledger)
    const created = await this.github.createIssue(
      this.options.title,
      renderDashboard(this.ledger, { ...this.options.view, now }),
      [DASHBOARD_LABEL]
    )
    if (!created.labels.includes(DASHBOARD_LABEL))
      this.notices.push(
        `GitHub created the dashboard ${created.url} without its label '${DASHBOARD_LABEL}'; the next run finds it by its author and title, but give the workflow 'issues: write'.`
      )
    this.adopt(created)
    await this.put(created.number, false)
    // A dashboard deleted, or transferred to another repository, cannot be found: an empty one
    // replaces it, which is never done silently.
    this.notices.push(
      `No docs agent dashboard was found (no issue labelled '${DASHBOARD_LABEL}', and none titled '${this.options.title}' opened by @${this.viewer || 'this action'}, open or closed): ${created.url} is opened with an empty ledger, and 'max-jobs' counts from here. If an earlier dashboard was deleted or transferred to another repository, what waited there and its last documented commit are not carried over: send those changes with a prompt, or transfer it back and delete the hidden state of ${created.url} (the last HTML comment of its body).`
    )
  }

  /**
   * The label put back, with its other labels, on a dashboard found again without it; reopened
   * when it was closed too, so that its boxes can be ticked.
   */
  private labelBack(): { labels?: string[]; state?: 'open' } {
    if (!this.relabel || !this.issue) return {}
    this.relabel = false
    return {
      labels: [...this.issue.labels, DASHBOARD_LABEL],
      ...(this.issue.state === 'open' ? {} : { state: 'open' as const })
    }
  }

  /**
   * Reads the newest body. Its state, when it verifies as written in this issue and is not the one
   * this run last read or wrote, is another run's: it is merged with this run's (mergedLedger),
   * unless it is older than this run's (a person's restore in between), when this run's is kept.
   * A state a newer version of the action wrote meanwhile is never written over: the run stops.
   * Returns the other run's state when it was merged in.
   */
  private merge(latest: IssueRecord): Ledger | undefined {
    const read = readDashboardState(
      latest.body,
      this.options.signer,
      this.options.view.repository,
      latest.number
    )
    if (!read.ok && read.why === 'newer')
      throw newerLedger(latest.url, read.format, ', and this run records nothing there')
    this.adopt(latest)
    if (!read.ok || stateKey(read.ledger) === this.known) return undefined
    this.known = stateKey(read.ledger)
    if ((read.ledger.writtenAt ?? 0) < (this.ledger.writtenAt ?? 0)) return undefined
    this.ledger = mergedLedger(read.ledger, this.ledger)
    return read.ledger
  }

  /** The body: the page, and the state stamped with its issue, its next version and the time. */
  private render(issue: number): string {
    const now = this.options.now()
    // Before it is signed: the state and the page say the same, with no secret in either.
    this.ledger = this.redactor.value(this.ledger)
    this.ledger.issue = issue
    this.ledger.version = (this.ledger.version ?? 0) + 1
    // On GitHub's clock, which stamps the edit: see github-clock.ts.
    this.ledger.writtenAt = Math.max(this.githubClock.now(), (this.ledger.writtenAt ?? 0) + 1)
    // Who writes it: earlier tokens' identities stay (their edits are the action's), this one last.
    const viewer = this.viewer
    if (viewer)
      this.ledger.writers = [
        ...(this.ledger.writers ?? []).filter(w => !sameActor(w, viewer)),
        viewer
      ].slice(-MAX_WRITERS)
    const record = ledgerRecord(
      this.ledger,
      this.options.signer,
      dashboardPlace(this.options.view.repository, issue),
      now
    )
    return withinIssueBody(renderDashboard(this.ledger, { ...this.options.view, now }), record)
  }
}

/**
 * The issues, with more of their edits read where the rollback check needs the action's newest
 * write and the edits first read hold none (see needsOlderEdits): one request or a few per such
 * issue, none in the usual case.
 */
async function withWritersEdits(
  graphql: DashboardIssues['graphql'],
  where: { owner: string; repo: string },
  issues: DashboardIssue[],
  ctx: Parameters<typeof needsOlderEdits>[1]
): Promise<DashboardIssue[]> {
  const read: DashboardIssue[] = []
  for (const issue of issues) {
    const byAction = needsOlderEdits(issue, ctx)
    read.push(byAction ? await withOlderEdits(graphql, where, issue, byAction) : issue)
  }
  return read
}

/** Tells states apart: each write of the action gives its state a new version and time. */
const stateKey = (ledger: Ledger): string => `${ledger.version ?? 0}/${ledger.writtenAt ?? 0}`

/** GitHub refuses an issue body over 65,536 characters (422): the whole write would be lost. */
const MAX_ISSUE_BODY = 65_536
const CUT_NOTE =
  '\n\n… The rest of this page is cut to keep the dashboard within the 65,536 characters GitHub allows an issue body; the state below is whole.'

/**
 * The page and the signed state as one body within GitHub's limit: the state is already fitted
 * (fitLedger), so a page too long (hostile titles, a long history) is cut, never the state.
 */
export function withinIssueBody(page: string, record: string): string {
  const body = `${page}\n${record}`
  if (body.length <= MAX_ISSUE_BODY) return body
  const room = Math.max(0, MAX_ISSUE_BODY - record.length - CUT_NOTE.length - 1)
  const cut = page.slice(0, room)
  // At a line's end: no Markdown link or table row is left half open.
  const atLine = cut.lastIndexOf('\n')
  return `${atLine > 0 ? cut.slice(0, atLine) : cut}${CUT_NOTE}\n${record}`
}

/**
 * Why the dashboard could not be read or written, named as GitHub failed (github/failure.ts): only
 * a refusal asks for `issues: write`, Issues turned off asks to turn them on, an outage or a rate
 * limit to run again later.
 */
function dashboardError(
  what: 'read' | 'write',
  error: unknown,
  { view, withoutLedger }: Pick<DashboardOptions, 'view' | 'withoutLedger'>
): ExplainedError {
  if (error instanceof NewerLedgerError) return error
  // GitHub asked for a wait the step cannot give, and says so.
  if (error instanceof RateLimitError)
    return new ExplainedError(
      `Could not ${what} the docs agent dashboard issue, so nothing was started: ${error.message}`
    )
  const or = withoutLedger ? `, or ${withoutLedger}` : ''
  const advice = whatToDo(error, {
    refused: `Give the workflow 'issues: write'${or}.`,
    disabled: `Issues are turned off in ${view.repository}, where the dashboard keeps the ledger: turn them on in its settings (Settings → General → Features → Issues)${or}.`
  })
  return new ExplainedError(
    `Could not ${what} the docs agent dashboard issue (${gitHubFailure(error).why}), which records what was handed to the agent, so nothing was started.${advice ? ` ${advice}` : ''}`
  )
}
