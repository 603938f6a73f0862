import { secretsOf } from '../agent/settings.js'
import type { GitHubSession } from '../github/session.js'
import { type DocsPull, type DocsPulls, docsFailure } from '../github/docs-pulls.js'
import { type RunEvent, botName, parsePullLink } from '../github/event.js'
import { RequestCap } from '../mintlify/request-cap.js'
import type { ApiClient } from '../mintlify/client.js'
import { ApiError, AuthError, NotFoundError } from '../mintlify/errors.js'
import type { Clock } from '../runner/clock.js'
import { errorText } from '../runner/errors.js'
import type { Logger } from '../runner/logger.js'
import { counted } from '../runner/text.js'
import { RecordSigner } from '../records/record.js'
import type { ProjectLedger, ReaderImpact } from '../records/ledger.js'
import { docsPulls } from '../agent/docs-repository.js'
import { Dashboard } from '../agent/ledger/dashboard.js'
import { applyUpdates } from '../agent/ledger/ledger-session.js'
import { refreshOutcomes } from '../agent/ledger/outcomes.js'
import { Input } from '../agent/names.js'
import type { ImpactSettings } from '../agent/settings.js'
import { IMPACT_MARKER, renderImpactComment, renderUnsureComment } from './comment.js'
import { MAX_REQUESTS_PER_PULL, measureWindows, plannedRequests } from './measure.js'
import { type PullPages, docsRepository, pagesOfPull } from './pages.js'
import { termsOf } from './terms.js'
import { type MergedJob, dueForImpact, impactWindows, waitingForImpact } from './windows.js'

export interface ImpactDeps {
  service: () => ApiClient
  log: Logger
  clock: Clock
  session: GitHubSession
  signal?: AbortSignal
}

export interface ImpactEnd {
  /** Docs pull requests measured in this run: their readers compared across the two windows. */
  measured: string[]
  /** Docs pull requests settled without figures (no site page, or pages that cannot be told). */
  unmeasurable: string[]
  /** Analytics requests sent, retries included. */
  requests: number
  dashboardUrl?: string
}

/** Files of a docs pull request read at most: three pages of a hundred. */
const MAX_FILE_PAGES = 3

/**
 * Reader impact of the merged docs pull requests in the ledger whose windows are over, oldest merge
 * first: their pages and terms compared across two equal windows, the result commented on the docs
 * pull request (or only on the dashboard) and remembered in the ledger, once. At most
 * MAX_REQUESTS_PER_PULL analytics requests each and `max-requests` in all; the rest wait for the
 * next run. A failure part-way posts and remembers nothing for that pull request.
 */
export async function measureReaderImpact(
  settings: ImpactSettings,
  event: RunEvent,
  deps: ImpactDeps
): Promise<ImpactEnd> {
  const { log, clock } = deps
  const repository = `${event.owner}/${event.repo}`
  const docs = docsPulls(settings, event.apiUrl, deps)
  const dashboard = await Dashboard.open(deps.session.repository(settings.githubToken, event), {
    title: settings.dashboardTitle,
    signer: new RecordSigner(settings.apiKey),
    secrets: secretsOf(settings),
    view: { repository, serverUrl: event.serverUrl, limits: settings },
    now: () => clock.wallNow(),
    warn: message => log.warning(message)
  })
  const end: ImpactEnd = {
    measured: [],
    unmeasurable: [],
    requests: 0,
    dashboardUrl: dashboard.url
  }
  const days = settings.impactAfter.days
  if (!dashboard.ledger.projects[settings.projectId]) {
    log.notice(
      `Reader impact: the dashboard of ${repository} holds no ledger for project ${settings.projectId} yet, so there is no merged docs pull request to measure.`
    )
    return end
  }
  const now = clock.wallNow()
  const project = await refreshed(dashboard, settings, { event, docs, log, now })
  const due = dueForImpact(project, now, days)
  const waiting = waitingForImpact(project, now, days)
  log.info(
    `Reader impact ('${Input.ImpactAfter}: ${settings.impactAfter.text}'): ${counted(due.length, 'merged docs pull request')} due, ${waiting} whose windows are not over yet.`
  )
  if (!due.length) return end
  if (settings.dryRun) {
    log.notice(
      `Dry run: would measure the reader impact of ${counted(due.length, 'docs pull request')}; nothing was read or written.`
    )
    return end
  }
  const measuring: Measuring = {
    settings,
    deps,
    dashboard,
    docs,
    serverUrl: event.serverUrl,
    end,
    left: settings.maxRequests,
    deadline: clock.now() + settings.timeoutMs,
    now
  }
  for (const [i, job] of due.entries())
    if ((await measureOne(job, due.length - i, measuring)) === 'stop') break
  end.dashboardUrl = dashboard.url
  return end
}

/** What measuring one docs pull request after another shares: the run's requests left, its deadline. */
interface Measuring {
  settings: ImpactSettings
  deps: ImpactDeps
  dashboard: Dashboard
  docs: DocsPulls
  serverUrl: string
  end: ImpactEnd
  /** Analytics requests left of `max-requests`. */
  left: number
  deadline: number
  now: number
}

/** Whether the run goes on to the next docs pull request, or stops measuring. */
type Next = 'next' | 'stop'

/** One docs pull request measured, commented and remembered, or why the run goes on or stops. */
async function measureOne(job: MergedJob, remaining: number, m: Measuring): Promise<Next> {
  const { settings, deps, docs, dashboard } = m
  const { log } = deps
  const where = parsePullLink(job.prLink, m.serverUrl)
  if (!where) return 'next'
  const mapped = await docsPages(docs, job, where, { log, docsRoot: settings.docsRoot })
  if (typeof mapped === 'string') return mapped
  const to = { docs, where, job, settings, log, dashboard }
  const days = settings.impactAfter.days
  const { pages, unsure } = mapped
  if (unsure) {
    log.notice(
      `Reader impact of ${job.prLink} not measured: ${unsure}, so its files cannot be mapped to site pages; no analytics request is spent on it.`
    )
    const impact: ReaderImpact = { at: m.now, days, before: [], after: [], unsure }
    impact.before = impact.after = emptyFigures()
    const body = renderUnsureComment({ mergedAt: job.endedAt, unsure })
    if (!(await settle(to, impact, body))) return 'stop'
    m.end.unmeasurable.push(job.prLink)
    return 'next'
  }
  const terms = termsOf(job.changes)
  // A docs pull request that changed no site page measures nothing, its terms neither: readers'
  // searches are no effect of a change they cannot read. The dashboard keeps one line.
  if (!pages.length) {
    log.notice(
      terms.length
        ? `Reader impact of ${job.prLink} not measured: it changed no site page; no analytics request is spent on it.`
        : `Reader impact: ${job.prLink} changed no docs page and has no recorded terms: there is nothing of it to measure.`
    )
    const impact: ReaderImpact = { at: m.now, days, before: [], after: [], noPages: true }
    impact.before = impact.after = emptyFigures()
    if (!(await settle(to, impact, undefined))) return 'stop'
    m.end.unmeasurable.push(job.prLink)
    return 'next'
  }
  const planned = plannedRequests({ pages, terms })
  // No run could measure it: it is no reason to hold back the newer ones.
  if (planned > settings.maxRequests) {
    log.warning(
      `Reader impact: ${job.prLink} takes ${planned} analytics requests, more than '${Input.MaxRequests}: ${settings.maxRequests}' allows a run: it is measured once '${Input.MaxRequests}' is at least ${planned}.`
    )
    return 'next'
  }
  if (planned > m.left) {
    log.notice(
      `Reader impact: 'max-requests: ${settings.maxRequests}' is spent; ${counted(remaining, 'docs pull request')} wait for the next run.`
    )
    return 'stop'
  }
  const windows = impactWindows(job.endedAt, days)
  const measured = await figuresOf(job, { pages, terms, windows }, m)
  if (!measured) return 'stop'
  const { impact, notes, used } = measured
  const body = renderImpactComment({
    mergedAt: job.endedAt,
    days,
    ...windows,
    pages,
    terms,
    figures: impact,
    notes,
    siteNotes: mapped.notes,
    operations: mapped.operations,
    wholeSpecs: mapped.wholeSpecs
  })
  if (!(await settle(to, impact, body))) return 'stop'
  m.end.measured.push(job.prLink)
  log.info(`Reader impact of ${job.prLink}: measured with ${counted(used, 'analytics request')}.`)
  return 'next'
}

/** The site pages a pull request changed, or what its files that could not be read mean for the run. */
async function docsPages(
  docs: DocsPulls,
  job: MergedJob,
  where: DocsPull,
  { log, docsRoot }: { log: Logger; docsRoot?: string }
): Promise<PullPages | Next> {
  try {
    // The one place a docs pull request's files become site pages (docs-site/), its repository
    // read through the door.
    const files = await docs.files(where, MAX_FILE_PAGES)
    return await pagesOfPull(docsRepository(docs, where), files, { docsRoot })
  } catch (error) {
    const failed = docsFailure(error)
    log.warning(
      `Reader impact: could not read the files of ${job.prLink} with '${docs.tokenInput}' (${failed.why}); it is measured in a later run.${failed.grant('read')}`
    )
    // A pull request GitHub does not have (gone, or out of the token's sight) holds back no other.
    return failed.missing ? 'next' : 'stop'
  }
}

/**
 * The figures of a pull request's two windows, within its share of the run's requests; undefined
 * when the service failed part-way (nothing is posted or remembered, the next run measures again).
 */
async function figuresOf(
  job: MergedJob,
  plan: {
    pages: PullPages['pages']
    terms: string[]
    windows: ReturnType<typeof impactWindows>
  },
  m: Measuring
): Promise<{ impact: ReaderImpact; notes: string[]; used: number } | undefined> {
  const { settings, deps, end } = m
  const { log } = deps
  const { pages, terms, windows } = plan
  const impact: ReaderImpact = { at: m.now, days: settings.impactAfter.days, before: [], after: [] }
  const cap = new RequestCap(Math.min(MAX_REQUESTS_PER_PULL, m.left))
  try {
    const measured = await measureWindows(
      deps.service(),
      { projectId: settings.projectId, pages, terms, ...windows },
      { deadline: m.deadline, cap }
    )
    impact.before = measured.before
    impact.after = measured.after
    return { impact, notes: measured.notes, used: cap.used }
  } catch (error) {
    if (
      !(error instanceof ApiError) ||
      error instanceof AuthError ||
      error instanceof NotFoundError
    )
      throw error
    log.notice(
      `Reader impact of ${job.prLink} not measured: ${errorText(error).replace(/\.+$/, '')}. Nothing was posted or remembered for it; the next run measures it again.`
    )
    return undefined
  } finally {
    end.requests += cap.used
    m.left -= cap.used
  }
}

/**
 * The project's ledger with its docs pull requests' outcomes brought up to date first (a few
 * requests, as a change run does), so that a run which only measures sees the latest merges.
 */
async function refreshed(
  dashboard: Dashboard,
  settings: ImpactSettings,
  {
    event,
    docs,
    log,
    now
  }: {
    event: RunEvent
    docs: DocsPulls
    log: Logger
    now: number
  }
): Promise<ProjectLedger> {
  const project = dashboard.project(settings.projectId)
  const reads = await refreshOutcomes(project, {
    now,
    docs,
    serverUrl: event.serverUrl,
    log,
    skip: new Set()
  })
  const updates = [...reads.changed, ...reads.checked]
  // The ledger keeps merged docs pull requests not measured yet, with their changes, while it
  // knows that they are measured (and after how long).
  const days = settings.impactAfter.days
  const stamp = project.impactDays !== days
  if ((!reads.changed.length && !stamp) || settings.dryRun) {
    applyUpdates(project, updates)
    return project
  }
  try {
    await dashboard.write(settings.projectId, p => {
      applyUpdates(p, updates)
      p.impactDays = days
    })
  } catch (error) {
    log.warning(`Reader impact: ${errorText(error)}`)
    applyUpdates(project, updates)
    return project
  }
  return dashboard.project(settings.projectId)
}

const emptyFigures = (): null[] => [null, null, null, null, null, null]

/**
 * A measured docs pull request's comment (`body`, when there is one to post) and its impact in the
 * ledger: false when either failed, and the run stops measuring.
 */
async function settle(
  to: {
    docs: DocsPulls
    where: DocsPull
    job: MergedJob
    settings: ImpactSettings
    log: Logger
    dashboard: Dashboard
  },
  impact: ReaderImpact,
  body: string | undefined
): Promise<boolean> {
  const { docs, where, job, settings, log, dashboard } = to
  const url =
    body === undefined ? undefined : await postComment(docs, where, job, settings, log, body)
  if (url === null) return false
  if (url) impact.commentUrl = url
  try {
    await dashboard.write(settings.projectId, p => {
      const known = p.jobs.find(j => j.id === job.id)
      if (known) known.impact = impact
    })
    return true
  } catch (error) {
    log.warning(
      `Reader impact of ${job.prLink} was measured, but the dashboard could not remember it (${errorText(error)}): the next run measures it again.`
    )
    return false
  }
}

/**
 * The comment on the docs pull request (`impact-comment: pr`), once: its URL, `undefined` when the
 * figures go only to the dashboard, `null` when it could not be posted (nothing is remembered).
 */
async function postComment(
  docs: DocsPulls,
  where: DocsPull,
  job: MergedJob,
  settings: ImpactSettings,
  log: Logger,
  body: string
): Promise<string | null | undefined> {
  if (settings.impactComment !== 'pr') return undefined
  try {
    // An earlier run that commented but could not remember it: its comment stands, not a second.
    // Only the docs-token identity's: another bot (or a person) quoting the marker is not this
    // action. Who that is not known, nothing is adopted: a second comment beats someone else's.
    const self = await docs.identity(where).catch((error: unknown) => {
      log.info(
        `Could not learn who '${docs.tokenInput}' is (${docsFailure(error).why}): an earlier reader impact comment on ${job.prLink} is not looked for.`
      )
      return undefined
    })
    const earlier = self
      ? (await docs.comments(where)).find(
          c => botName(c.author) === botName(self) && c.body.includes(IMPACT_MARKER)
        )
      : undefined
    if (earlier) {
      log.info(`Reader impact of ${job.prLink}: commented on it already, by an earlier run.`)
      return `${job.prLink}#issuecomment-${earlier.id}`
    }
    const id = await docs.comment(where, body)
    return `${job.prLink}#issuecomment-${id}`
  } catch (error) {
    const failed = docsFailure(error)
    log.warning(
      `Reader impact of ${job.prLink} was measured, but could not be commented on it with '${docs.tokenInput}' (${failed.why}): the next run measures it again.${failed.grant('write')}`
    )
    return null
  }
}
