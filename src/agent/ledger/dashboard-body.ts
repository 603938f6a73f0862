import { codeSpan, escapeMarkdown, markdownLink } from '../../runner/markdown.js'
import { DAY_MS } from '../../runner/duration.js'
import { counted, formatCount } from '../../runner/text.js'
import { type Limits, budgetStates, budgetText, startsWithin } from './budget.js'
import type { ChangeRef, Ledger, ProjectLedger } from '../../records/ledger.js'
import { STILL_OPEN, hoursOrDays, outcomes } from './outcomes.js'
import { type RepositoryFigures, outcomesByRepository } from './outcomes-by-repository.js'
import { approvalLines, resendBox } from './approval-box.js'
import { listedWatermarks } from './watermarks.js'
import { renderImpactTable } from './impact-table.js'

/** Where links point: the repository the dashboard is in, on the run's GitHub; the project's limits. */
export interface DashboardView {
  repository: string
  serverUrl: string
  now: number
  /** What the policy file allows the project (budgets, max-open), shown with what it used. */
  limits?: Limits
}

/** Mintlify's published average credits for a run that updates docs from code changes. */
const DEFAULT_CREDITS_PER_RUN = 180

const SHOWN_JOBS = 10
const SHOWN_CHANGES = 5
const SHOWN_WAITING = 20
/** The people's part of the body stays well under GitHub's 65,536 characters, beside the state. */
const MAX_BODY_CHARS = 36_000

/** The dashboard as people read it: what the agent is doing for this repository, per project. */
export function renderDashboard(ledger: Ledger, view: DashboardView): string {
  const lines = [
    'This issue is kept by the Mintlify agent action. It shows what the documentation agent is doing for this repository, and it is the record of which changes were handed to the agent: every run of the action updates it, and what you edit here is overwritten. Closing it hides it until the next run.',
    ''
  ]
  if (ledger.afresh) lines.push(afreshLine(ledger.afresh), '')
  const projects = Object.entries(ledger.projects)
  if (projects.length === 0) lines.push('Nothing yet.', '')
  for (const [id, project] of projects) lines.push(...renderProject(id, project, view))
  const text = lines.join('\n')
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}\n\n… (cut: the rest did not fit in the issue)\n`
    : text
}

/** The ledger started afresh: what the state before it held is lost, and where it can be read. */
function afreshLine(afresh: NonNullable<Ledger['afresh']>): string {
  const edit = afresh.by
    ? ` by @${escapeMarkdown(afresh.by)}${afresh.at ? ` (${when(afresh.at)})` : ''}`
    : ''
  const why =
    afresh.why === 'deleted'
      ? `deleted${edit}`
      : `edited by hand${edit}, or written with another API key`
  return `> **This ledger started afresh**: the hidden state before it was ${why}. What it recorded is not carried over: the last documented commit, the budget's history, the changes that waited and the uncertain requests. Its last version is in this issue's edit history (the last version the action wrote${afresh.at ? ` before ${when(afresh.at)}` : ''}): send what waited there with a prompt.`
}

function renderProject(id: string, project: ProjectLedger, view: DashboardView): string[] {
  const lines = [`### Project ${codeSpan(id)}`, '']
  const day = startsWithin(project.spend, DAY_MS, view.now)
  const week = startsWithin(project.spend, 7 * DAY_MS, view.now)
  const documented = project.documented
    ? `${commitLink(project.documented.sha, view)} · ${when(project.documented.at)}`
    : 'none yet: the first change run documents its own change'
  const marks = Object.values(project.repositories ?? {})
  lines.push(
    ...(marks.length && !project.documented ? [] : [`- **Last documented commit**: ${documented}`]),
    ...(project.backlog
      ? [
          `- **Beyond one run's bounds**: ${counted(project.backlog, 'more change')} after it ${project.backlog === 1 ? 'waits' : 'wait'}; the next runs (a merge, a push, a scheduled or manual catch-up) take them, oldest first`
        ]
      : []),
    `- **Jobs and follow-ups started**: ${formatCount(day)} in the last 24 hours, ${formatCount(week)} in the last 7 days`,
    ...renderBudget(project, view),
    ''
  )
  lines.push(...renderWatermarks(project, view))
  lines.push(...renderOutcomes(project, view))
  lines.push(...renderOutcomesByRepository(project, view))
  lines.push(...renderKept(project))
  lines.push(...renderImpactTable(project.jobs, shortPull))
  const jobs = project.jobs.slice(-SHOWN_JOBS).reverse()
  const earlierJobs = (project.olderJobs ?? 0) + project.jobs.length - jobs.length
  if (jobs.length) {
    lines.push(
      '#### Docs pull requests and jobs',
      '',
      '| Docs pull request | Job | State | Changes in it |',
      '|---|---|---|---|',
      ...jobs.map(
        job =>
          `| ${job.prLink ? markdownLink(shortPull(job.prLink), job.prLink) : 'not yet'} | ${codeSpan(job.id)} | ${escapeMarkdown(job.state)} | ${changeList(job.changes, job.moreChanges, view)} |`
      ),
      ...(earlierJobs ? [`| | | | … and ${formatCount(earlierJobs)} earlier jobs |`] : []),
      ''
    )
  }
  if (project.waiting && project.waiting.changes.length) {
    const { changes, why } = project.waiting
    lines.push(
      `#### Waiting: ${counted(changes.length, 'change')}`,
      '',
      `${escapeMarkdown(why)}`,
      '',
      ...approvalLines(project.waiting, approvalCost(project, view)),
      ...changes.slice(0, SHOWN_WAITING).map(c => `- ${changeLink(c, view)}`),
      ...(changes.length > SHOWN_WAITING ? [`- … and ${changes.length - SHOWN_WAITING} more`] : []),
      ''
    )
  }
  const olderUncertain = project.olderUncertain ?? 0
  if (project.uncertain.length || olderUncertain) {
    lines.push(
      '#### Uncertain',
      '',
      "Each request below got no answer, or an answer that does not say whether the service acted on it (HTTP 500, 502 or 504, a time-out, a lost connection), so it may have started a job. The action does not send these changes again by itself: look for the job among the agent jobs on the Mintlify dashboard; if there is none, tick the request's box to send its changes again, once (ticking needs the workflow's `required-permission`, and a workflow that runs when the dashboard is edited, as for `approval: dashboard`).",
      '',
      ...project.uncertain.flatMap(u => [
        `- ${when(u.at)}: ${u.what === 'follow-up' ? `follow-up to ${codeSpan(u.job ?? '?')}` : 'a new job'} (${escapeMarkdown(u.why)}) for ${changeList(u.changes, u.moreChanges ?? 0, view)}${u.moreChanges ? ` (the box sends the ${counted(u.changes.length, 'change')} kept; the ${formatCount(u.moreChanges)} more were not kept: send them with a prompt)` : ''}`,
        ...(u.id ? [resendBox(u.id)] : [])
      ]),
      // Their changes and boxes left the ledger to keep it within its share: said, never hidden.
      ...(olderUncertain
        ? [
            `- … and ${formatCount(olderUncertain)} earlier uncertain requests, no longer listed: their changes were not sent again; look for their jobs on the Mintlify dashboard, and send what none documented with a prompt.`
          ]
        : []),
      ''
    )
  }
  if (project.runs.length) {
    lines.push(
      '#### Last runs',
      '',
      '| Run | Result | Job | Changes | Note |',
      '|---|---|---|---:|---|',
      ...[...project.runs]
        .reverse()
        .map(
          r =>
            `| ${r.url ? markdownLink(when(r.at), r.url) : when(r.at)} | ${codeSpan(r.result)} | ${r.job ? codeSpan(r.job) : ''} | ${formatCount(r.changes)} | ${escapeMarkdown(r.note)} |`
        ),
      ...(project.olderRuns
        ? [`| | | | | … and ${formatCount(project.olderRuns)} earlier runs |`]
        : []),
      ''
    )
  }
  return lines
}

/** With `code-repositories`: each code repository's last documented commit, by name. */
function renderWatermarks(project: ProjectLedger, view: DashboardView): string[] {
  // Those of repositories no longer listed are kept for their return, not shown.
  const marks = listedWatermarks(project).sort((a, b) => a.name.localeCompare(b.name))
  if (!marks.length) return []
  return [
    '#### Code repositories',
    '',
    'Each run documents what each repository merged after its last documented commit.',
    '',
    '| Repository | Branch | Last documented commit | Since |',
    '|---|---|---|---|',
    ...marks.map(
      m =>
        `| ${markdownLink(m.name, `${view.serverUrl}/${m.name}`)} | ${codeSpan(m.branch)} | ${commitLink(m.sha, { ...view, repository: m.name })} | ${when(m.at)} |`
    ),
    ''
  ]
}

/**
 * What the policy file allows the project and what it used: each budget in its window (`max-jobs`,
 * `max-credits`), the credits the starts are estimated at, and how many docs pull requests may be
 * open at once (`max-open`). Without a budget the 30 days' starts and their estimate only.
 */
function renderBudget(project: ProjectLedger, view: DashboardView): string[] {
  const limits = view.limits ?? { creditsPerRun: DEFAULT_CREDITS_PER_RUN }
  const perRun = formatCount(limits.creditsPerRun)
  const month = startsWithin(project.spend, 30 * DAY_MS, view.now)
  const states = budgetStates(project.spend, limits, view.now)
  return [
    ...(states.length
      ? states.map(state => `- **Budget**: ${budgetText(state, limits)}`)
      : ['- **Budget**: none set (the policy file’s `max-jobs` or `max-credits` sets one)']),
    `- **Credits used (estimate)**: about ${formatCount(month * limits.creditsPerRun)} in the last 30 days, at ${perRun} a run (\`credits-per-run\`: Mintlify publishes averages, the API reports no usage)`,
    `- **Open at once**: ${limits.maxOpen === undefined ? 'no limit (the policy file’s `max-open` sets one)' : `at most ${counted(limits.maxOpen, 'docs pull request')} (\`max-open: ${limits.maxOpen}\`; a running job counts)`}`
  ]
}

/** What ticking the waiting batch's box would cost, and the budget it would leave. */
function approvalCost(
  project: ProjectLedger,
  view: DashboardView
): { creditsPerRun: number; budget?: string } {
  const limits = view.limits ?? { creditsPerRun: DEFAULT_CREDITS_PER_RUN }
  const states = budgetStates(project.spend, limits, view.now)
  return {
    creditsPerRun: limits.creditsPerRun,
    ...(states.length ? { budget: states.map(state => budgetText(state, limits)).join('; ') } : {})
  }
}

/** What became of the agent's work over the last 30 days: figures only, no text from elsewhere. */
function renderOutcomes(project: ProjectLedger, view: DashboardView): string[] {
  const perRun = view.limits?.creditsPerRun ?? DEFAULT_CREDITS_PER_RUN
  const o = outcomes(project, view.now, perRun)
  if (!o.started && !o.decided && !o.open) return []
  const acceptance =
    o.acceptance === undefined
      ? 'no decided pull request yet'
      : `${Math.round(o.acceptance * 100)}% (${formatCount(o.merged)} merged of ${formatCount(o.decided)} decided)`
  const unread = o.merged - o.touchKnown - o.touchTooLong
  const tooLong = o.touchTooLong
    ? `; ${formatCount(o.touchTooLong)} merged with more events than one read holds, not known`
    : ''
  const zeroTouch = o.touchKnown
    ? `${Math.round((o.zeroTouch / o.touchKnown) * 100)}% (${formatCount(o.zeroTouch)} of ${formatCount(o.touchKnown)} merged without a person's commit${unread ? `; ${formatCount(unread)} merged not read yet` : ''}${tooLong})`
    : 'no merged pull request read yet'
  return [
    '#### Outcomes, last 30 days',
    '',
    'Docs pull requests opened in the last 30 days, as last read from the docs repository (a few a run); jobs and follow-ups by the day they started.',
    '',
    `- **Jobs and follow-ups started**: ${formatCount(o.started)}`,
    `- **Docs pull requests**: ${formatCount(o.merged)} merged · ${formatCount(o.closed)} closed without merge · ${formatCount(o.expired)} expired · ${formatCount(o.open)} still open · ${formatCount(o.drafts)} open as drafts, counted apart`,
    `- **Accepted**: ${acceptance}: merged ÷ decided, where decided is merged + closed without merge + expired; open pull requests and drafts are not decided yet`,
    `- **Zero-touch**: ${zeroTouch}: merged without a person's commit ÷ merged whose commits were read (a person is anyone but the docs agent's identities and bots)`,
    `- **Median time from job start to merge**: ${o.medianToMerge === undefined ? 'no merged pull request yet' : `${hoursOrDays(o.medianToMerge)} (the middle of ${formatCount(o.merged)} merged)`}`,
    `- **Credits per merged docs pull request (estimate)**: ${o.creditsPerMerge === undefined ? 'no merged pull request yet' : `about ${formatCount(o.creditsPerMerge)}`} (an estimate, not a measure: every job and follow-up started, at ${formatCount(perRun)} credits a run ('credits-per-run'), ÷ merged; the API reports no usage)`,
    ''
  ]
}

/**
 * With several code repositories: the outcomes' figures per repository, counted as the total is,
 * over the docs pull requests that document its changes. Names link to the repository, escaped.
 */
function renderOutcomesByRepository(project: ProjectLedger, view: DashboardView): string[] {
  const byRepository = outcomesByRepository(project, view.now)
  if (!byRepository?.rows.some(({ figures: f }) => f.decided || f.open || f.drafts)) return []
  const { rows, unnamed } = byRepository
  return [
    '#### Outcomes per code repository, last 30 days',
    '',
    'Counted as the outcomes above, over the docs pull requests that document each repository’s changes. A docs pull request that documents changes from several repositories counts once for each of them, so the rows can add up to more than the total.',
    ...(unnamed
      ? [
          '',
          `${counted(unnamed, 'docs pull request')} whose changes name no repository (recorded before \`code-repositories\`) ${unnamed === 1 ? 'is' : 'are'} in no row.`
        ]
      : []),
    '',
    '| Repository | Merged | Closed | Expired | Open | Drafts | Accepted | Zero-touch | Median time to merge |',
    '|---|---:|---:|---:|---:|---:|---|---|---|',
    ...rows.map(
      ({ name, figures: f }) =>
        `| ${markdownLink(name, `${view.serverUrl}/${name}`)} | ${[f.merged, f.closed, f.expired, f.open, f.drafts].map(formatCount).join(' | ')} | ${repositoryCells(f)} |`
    ),
    ''
  ]
}

/** A repository's acceptance, zero-touch rate and median time to merge, each with its counts. */
function repositoryCells(f: RepositoryFigures): string {
  const share = (part: number, whole: number, of: string, none: string) =>
    whole
      ? `${Math.round((part / whole) * 100)}% (${formatCount(part)} of ${formatCount(whole)} ${of})`
      : none
  return [
    share(f.merged, f.decided, 'decided', 'none decided yet'),
    share(f.zeroTouch, f.touchKnown, 'merged and read', 'no merge read yet'),
    f.medianToMerge === undefined ? 'no merge yet' : hoursOrDays(f.medianToMerge)
  ].join(' | ')
}

/** Docs pull requests `expire-after` keeps open, each with why: a person's work is on it. */
function renderKept(project: ProjectLedger): string[] {
  const kept = project.jobs.filter(j => j.kept && j.prLink && STILL_OPEN.has(j.state))
  if (!kept.length) return []
  return [
    '#### Kept open past expire-after',
    '',
    'Stale means nobody but the docs agent touched a docs pull request for longer than `expire-after`; these are not stale, and a person’s commit, approval, request for changes or keep label keeps one open for good.',
    '',
    ...kept
      .slice(-SHOWN_JOBS)
      .map(
        j =>
          `- ${markdownLink(shortPull(j.prLink as string), j.prLink as string)}: ${escapeMarkdown(j.kept?.why ?? '')} (as of ${when(j.kept?.at ?? 0)})`
      ),
    ''
  ]
}

const when = (at: number): string =>
  at ? `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''

const commitLink = (sha: string, view: DashboardView): string =>
  markdownLink(sha.slice(0, 7), `${view.serverUrl}/${view.repository}/commit/${sha}`)

function changeLink(change: ChangeRef, view: DashboardView): string {
  // In a docs project of several repositories a number alone is ambiguous: `acme/api#12`.
  const number = change.pr ? `#${change.pr}` : change.sha.slice(0, 7)
  const label = change.repo ? `${change.repo}${change.pr ? '' : '@'}${number}` : number
  const url =
    change.url ?? `${view.serverUrl}/${change.repo ?? view.repository}/commit/${change.sha}`
  return `${markdownLink(label, url)} ${escapeMarkdown(change.title)}`
}

function changeList(changes: ChangeRef[], more: number, view: DashboardView): string {
  const shown = changes.slice(-SHOWN_CHANGES).map(c => changeLink(c, view))
  const rest = changes.length - shown.length + more
  return [...shown, ...(rest > 0 ? [`and ${rest} more`] : [])].join(' · ')
}

/** `acme/docs#101` for a pull request URL; the URL itself otherwise. */
function shortPull(url: string): string {
  const m = /\/([^/]+)\/([^/]+)\/pull\/(\d+)\/?$/.exec(url)
  return m ? `${m[1]}/${m[2]}#${m[3]}` : url
}
