import { randomBytes } from 'node:crypto'
import {
  type GitHubApi,
  type IssueRecord,
  RateLimitError,
  describeGitHubError,
  fromGitHub,
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
import { CancelledError, ExplainedError } from '../../runner/errors.js'
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
  type AddedItems,
  DASHBOARD_LABEL,
  type Ledger,
  MAX_WRITERS,
  type ProjectLedger,
  addedItems,
  emptyProject,
  dashboardPlace,
  fitLedger,
  holdsNone,
  joinedItems,
  lackedItems,
  ledgerRecord,
  mergedLedger,
  noItems,
  noneAdded,
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
 * of one token are a second apart (github/limits.ts), and an answer takes about as long. What a run
 * added is put back into another run's state that lacks it until a read this long after its write
 * showed it held (see `unsettled`).
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
  /** The run's cancel: a write or read it ends says so, not that GitHub failed. */
  signal?: AbortSignal
  /**
   * How the run could go without a ledger, when it can (a change run in its own repository whose
   * policy sets nothing that needs the dashboard: "set 'dashboard: false' …"): offered beside the
   * fix when the dashboard cannot be read or written.
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
  /** The state this run last wrote or merged (stateKey): the body holding it holds all of this run's. */
  private known?: string
  /**
   * Every state this run read or wrote (stateKey): one of them in the body again is a read GitHub
   * served before its copy caught up, or a person's restore (dashboard-choice.ts judges those on the
   * next run), never a new state of another run's to merge.
   */
  private readonly seen = new Set<string>()
  /**
   * What this run added (jobs, run entries, starts), by project, with when its write was answered
   * (the run's clock): put back into another run's state that lacks it (mergedLedger), until a read
   * at least CONFIRM_AFTER_MS after that write showed it held. Only what the run added is put back:
   * what another run's fit moved into the counts of older runs and jobs stays there.
   */
  private unsettled: { project: string; items: AddedItems; at: number }[] = []

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
    if (choice.issue && !choice.stateUnread) dashboard.know(choice.ledger)
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
        const labels = this.labelsBack()
        this.absorb(
          await this.github.updateIssue(this.issue.number, {
            title: this.issue.title,
            ...(reopen ? { state: 'open' } : {}),
            ...labels
          })
        )
        this.relabel = false
      }
    } catch (error) {
      throw dashboardError('write', error, this.options)
    }
    this.checked = true
  }

  /**
   * Changes this project's part and writes the dashboard, as a compare-and-set: the newest body is
   * read first (a read, no write), another run's state written since this run's last read or write
   * is taken as the base, with what this run added put back where it lacks it (mergedLedger), and
   * the change is made to that. With `confirm` (a write that records a start, which `max-jobs`
   * counts), the body is read again a moment later: a run that read just before this write and
   * wrote just after took it away, so the change is made again to that run's state and written, a
   * few times at most. The change may thus be made more than once, each time to a fresh copy: it
   * takes its times and ids from outside, never makes them. A box of a batch still waiting that
   * someone ticked in the body last read stays ticked (its own run judges it), unless `untick` (a
   * refused tick undone).
   */
  async write(
    projectId: string,
    change: (project: ProjectLedger) => void,
    { untick = false, confirm = false }: { untick?: boolean; confirm?: boolean } = {}
  ): Promise<void> {
    try {
      if (!this.issue) {
        const added = this.changed(projectId, change)
        await this.create()
        this.checked = true
        this.unsettle(projectId, added)
        return
      }
      const number = this.issue.number
      // GitHub documents no read-after-write guarantee for its REST API: this read may be served
      // before a write made just before it shows (a run's own, or another run's). A state this run
      // read or wrote already is never merged as new (`seen`), so such a read costs nothing but
      // that write's being merged on the next read; the read back below, CONFIRM_AFTER_MS later,
      // relies on GitHub showing a write by then, as its own answers to the write do at once.
      this.absorb(await this.github.getIssue(number))
      let before = this.ledger
      let added = this.changed(projectId, change)
      await this.put(number, untick)
      this.unsettle(projectId, added)
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
        const latest = await this.github.getIssue(number)
        const state = this.stateOf(latest)
        // This run's own state; or another run's that holds some of what this write added (it
        // read it first), which is taken as any other.
        if (!state?.fresh || !holdsNone(state.ledger.projects[projectId], added)) {
          this.absorb(latest, state)
          break
        }
        this.adopt(latest)
        const theirs = state.ledger
        // Another run wrote over this write, from what it read before it: this run's change is
        // made again to that run's state, with what this run added before put back.
        this.unsettled.pop()
        this.ledger = mergedLedger(theirs, before, this.unsettledItems())
        this.know(theirs)
        before = this.ledger
        added = this.changed(projectId, change)
        await this.put(number, untick)
        this.unsettle(projectId, added)
      }
    } catch (error) {
      throw dashboardError('write', error, this.options)
    }
  }

  /** The change made to a copy of the ledger, which becomes the ledger: what it added. */
  private changed(projectId: string, change: (project: ProjectLedger) => void): AddedItems {
    const next = structuredClone(this.ledger)
    const before = structuredClone(next.projects[projectId])
    const project = (next.projects[projectId] ??= emptyProject())
    change(project)
    this.ledger = next
    return addedItems(before, project)
  }

  /** What a write added, kept until a later read shows it held (see `unsettled`). */
  private unsettle(project: string, items: AddedItems): void {
    if (!noneAdded(items)) this.unsettled.push({ project, items, at: this.options.now() })
  }

  /** Everything this run added that no read has shown held yet, by project. */
  private unsettledItems(): Record<string, AddedItems> {
    const items: Record<string, AddedItems> = {}
    for (const u of this.unsettled)
      items[u.project] = joinedItems(items[u.project] ?? noItems(), u.items)
    return items
  }

  /**
   * Writes the body: the page and the state rendered anew for each attempt GitHub's client sends
   * (after a rate limit's wait, the state says when it reached GitHub), and once more when GitHub
   * recorded it later than that all the same (a slow answer). A label put back goes with every
   * attempt, and is known to be back once one was answered.
   */
  private async put(number: number, untick: boolean): Promise<void> {
    const ticked = untick ? [] : tickedBatches(this.body)
    const resends = untick ? [] : tickedResends(this.body)
    const labels = this.labelsBack()
    const body = () => ({
      body: keepTicks(this.render(number), ticked, resends),
      ...labels
    })
    let answer = await this.github.updateIssue(number, body)
    this.adopt(answer)
    this.relabel = false
    if (this.githubClock.recordedLate(answer, this.ledger.writtenAt)) {
      answer = await this.github.updateIssue(number, body)
      this.adopt(answer)
    }
    this.know(this.ledger)
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
      `No docs agent dashboard was found (no issue labelled '${DASHBOARD_LABEL}', and none titled '${this.options.title}' opened by @${this.viewer || 'this action'}, open or closed): ${created.url} is opened with an empty ledger, and the budget ('max-jobs', 'max-credits') counts from here. If an earlier dashboard was deleted or transferred to another repository, what waited there and its last documented commit are not carried over: send those changes with a prompt, or transfer it back and delete the hidden state of ${created.url} (the last HTML comment of its body).`
    )
  }

  /**
   * The label put back, with its other labels, on a dashboard found again without it; reopened
   * when it was closed too, so that its boxes can be ticked.
   */
  private labelsBack(): { labels?: string[]; state?: 'open' } {
    if (!this.relabel || !this.issue) return {}
    return {
      labels: [...this.issue.labels, DASHBOARD_LABEL],
      ...(this.issue.state === 'open' ? {} : { state: 'open' as const })
    }
  }

  /**
   * The newest body's state, verified as written in this issue: `fresh` when it is another run's
   * new state, neither one this run wrote nor one it read before (`seen`). A state a newer version
   * of the action wrote meanwhile is never written over: the run stops.
   */
  private stateOf(latest: IssueRecord): { ledger: Ledger; fresh: boolean } | undefined {
    const read = readDashboardState(
      latest.body,
      this.options.signer,
      this.options.view.repository,
      latest.number
    )
    if (!read.ok && read.why === 'newer')
      throw newerLedger(latest.url, read.format, ', and this run records nothing there')
    if (!read.ok) return undefined
    return { ledger: read.ledger, fresh: !this.seen.has(stateKey(read.ledger)) }
  }

  /**
   * Takes the newest body. Another run's new state is the base, with what this run added put back
   * where it lacks it (mergedLedger only adds). What this run added is settled once a read at least
   * CONFIRM_AFTER_MS after its write shows it held, in this run's own state or in another run's.
   */
  private absorb(latest: IssueRecord, state = this.stateOf(latest)): void {
    this.adopt(latest)
    if (!state) return
    const theirs = state.fresh ? state.ledger : undefined
    const holding = theirs ?? (stateKey(state.ledger) === this.known ? this.ledger : undefined)
    if (!holding) return
    const now = this.options.now()
    this.unsettled = this.unsettled.filter(
      u =>
        now - u.at < CONFIRM_AFTER_MS ||
        !noneAdded(lackedItems(holding.projects[u.project], u.items))
    )
    if (!theirs) return
    this.ledger = mergedLedger(theirs, this.ledger, this.unsettledItems())
    this.know(theirs)
  }

  /** A state this run wrote or merged: the one the body holds as far as this run knows. */
  private know(ledger: Ledger): void {
    this.known = stateKey(ledger)
    this.seen.add(this.known)
  }

  /** The body: the page, and the state stamped with its issue, its next version and the time. */
  private render(issue: number): string {
    const now = this.options.now()
    // Before it is signed: the state and the page say the same, with no secret in either; and
    // fitted as written, so that what it holds is what the next read is compared with.
    this.ledger = fitLedger(this.redactor.value(this.ledger), now)
    this.ledger.issue = issue
    this.ledger.version = (this.ledger.version ?? 0) + 1
    // On GitHub's clock, which stamps the edit: see github-clock.ts.
    this.ledger.writtenAt = Math.max(this.githubClock.now(), (this.ledger.writtenAt ?? 0) + 1)
    this.ledger.write = randomBytes(9).toString('base64url')
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

/** Tells states apart: each write of the action gives its state a new version, time and mark. */
const stateKey = (ledger: Ledger): string =>
  `${ledger.version ?? 0}/${ledger.writtenAt ?? 0}/${ledger.write ?? ''}`

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
 * limit to run again later. A cancel says so; any other error (not GitHub's) is itself.
 */
function dashboardError(
  what: 'read' | 'write',
  error: unknown,
  { view, withoutLedger, signal }: Pick<DashboardOptions, 'view' | 'withoutLedger' | 'signal'>
): unknown {
  if (error instanceof NewerLedgerError) return error
  if (error instanceof CancelledError || signal?.aborted)
    return new CancelledError(
      `Cancelled while ${what === 'read' ? 'reading' : 'writing'} the docs agent dashboard issue.`
    )
  if (!fromGitHub(error)) return error
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
