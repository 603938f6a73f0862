import type { FakePull } from '../test/simulator/fake-github.js'
import { CodeChangeServers } from '../test/support/code-change-runs.js'
import { DOCS, DocsProject } from '../test/support/docs-project-runs.js'
import type { RunOptions } from '../test/support/run-action.js'
import { runInProcess } from '../test/support/run-in-process.js'
import { VirtualClock } from '../test/support/virtual-clock.js'
import { type Goal, goal, median, round } from './stats.js'

const REPOSITORIES = 10
const MERGES_PER_WEEK = 50
const DAYS = 7
const HOUR = 3_600_000
const DAY = 24 * HOUR
/** One dispatch in ten never reaches the docs repository. */
const LOST_EVERY = 10
/** The service allows 100 agent jobs and follow-ups an hour per project. */
const SERVICE_PER_HOUR = 100
const MAX_JOBS = 40
/** A reviewer merges the open docs pull request this long after it opened. */
const REVIEW_AFTER = 4 * HOUR
/** The daily catch-up's time of day (examples/docs-project.yml: 05:23 UTC). */
const CATCH_UP_AT = 5 * HOUR + 23 * 60_000
/** Every repository's head, in one request. */
const HEADS_READ = 1
/** A repository with news is read twice more: its history since its watermark, its pull requests. */
const PER_REPOSITORY_WITH_NEWS = 2
/**
 * The ledger's requests in a run: the dashboard read and written, the docs pull request read. 14,
 * not 10 as before issue 34: each write is a compare-and-set (the dashboard read first, and a
 * start read back), so that overlapping runs neither erase a job nor miscount the budget.
 */
const LEDGER_SHARE = 14

export interface DocsProjectResult {
  merges: number
  dispatches: { sent: number; lost: number; cancelled: number }
  runs: number
  /** Merges that reached no prompt, and more than one, by the end of the week's last catch-up. */
  missed: number
  twice: number
  /** From a merge to the run that handed it over: the longest, in hours. */
  longestWaitHours: number
  maxOpenDocsPrs: number
  writes: number
  maxWritesPerHour: number
  maxWritesPerDay: number
  /** GitHub requests of a run: the most, and each day's median. */
  requests: {
    max: number
    perDay: number[]
    /** Requests beyond the repositories' reads, at most: the ledger's share. */
    ledgerShare: number
    /** Runs by how many repositories had news: how many, and their fewest and most requests. */
    byNews: { news: number; runs: number; min: number; max: number }[]
  }
  /**
   * GitHub's side of a run: its content writes (comments, issue edits and creations, review
   * requests: every REST call but a read), and the TCP connections it opened to GitHub (one
   * client per token, however many repositories it reads). The most in a run, and the median.
   */
  github: { writes: { max: number; median: number }; connections: { max: number; median: number } }
  goals: Goal[]
}

/** A seeded generator (mulberry32): the same week every time. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Merge {
  at: number
  repo: string
  tag: string
  pull?: FakePull
}

interface Trigger {
  at: number
  kind: 'dispatch' | 'schedule'
  repo?: string
}

/**
 * One docs project fed by ten code repositories for a week on the simulator: fifty merged pull
 * requests a week in each, at random times of the working day; each merge dispatches to the docs
 * repository, and one dispatch in ten is lost. The runs are serialised by one concurrency group:
 * while one runs, GitHub keeps only the newest pending run and cancels the others. A daily catch-up
 * runs at 05:23, and a reviewer merges each docs pull request four hours after it opens. Counts
 * whether every merge reaches exactly one prompt, the open docs pull requests, the service's writes
 * per hour and per day, and each run's GitHub requests against the repositories with news. With
 * `max-open: 1`, `max-jobs: 40/day` and jobs of 20 minutes (`wait: true`, polled every minute).
 */
export async function docsProjectBench(): Promise<DocsProjectResult> {
  const clock = new VirtualClock()
  const servers = await CodeChangeServers.start({
    now: clock.wallNow,
    job: { durationMs: 20 * 60_000 }
  })
  const { gh, sim } = servers
  const repositories = Array.from({ length: REPOSITORIES }, (_, i) => `acme/r${i}`)
  const project = new DocsProject(servers, clock.wallNow, repositories)
  project.init()
  // The week starts at the next midnight UTC.
  const start = Math.ceil(clock.wallNow() / DAY) * DAY
  const next = random(28)
  const merges: Merge[] = []
  for (const repo of repositories)
    for (let n = 1; n <= MERGES_PER_WEEK; n++) {
      const day = Math.floor(next() * DAYS)
      const at = start + day * DAY + 8 * HOUR + Math.floor(next() * 12 * HOUR)
      merges.push({ at, repo, tag: `[${repo.slice(5)}-m${String(n).padStart(3, '0')}]` })
    }
  merges.sort((a, b) => a.at - b.at)
  const triggers: Trigger[] = merges.map((m, i) => ({
    at: m.at + 30_000,
    kind: 'dispatch',
    repo: (i + 1) % LOST_EVERY === 0 ? undefined : m.repo
  }))
  for (let day = 0; day <= DAYS; day++)
    triggers.push({ at: start + day * DAY + CATCH_UP_AT, kind: 'schedule' })
  triggers.sort((a, b) => a.at - b.at)
  const lost = triggers.filter(t => t.kind === 'dispatch' && !t.repo).length
  const sent = triggers.filter(t => t.repo).length

  const inputs = { 'max-jobs': `${MAX_JOBS}/day`, 'max-open': '1', 'poll-interval': '60s' }
  const stepOf = (t: Trigger): RunOptions =>
    t.kind === 'schedule'
      ? project.schedule(inputs)
      : project.step(project.dispatch(t.repo as string), inputs)
  let merged = 0
  const mergeDue = (): void => {
    while (merged < merges.length && (merges[merged] as Merge).at <= clock.wallNow()) {
      const m = merges[merged++] as Merge
      m.pull = project.merge(m.repo, { title: `Change ${m.tag}`, mergedAt: m.at })
    }
  }
  const reviews: { at: number; pull: FakePull }[] = []
  const reviewDue = (): void => {
    for (const r of reviews.splice(0))
      if (r.at <= clock.wallNow()) Object.assign(r.pull, { state: 'closed', merged: true })
      else reviews.push(r)
  }
  const openDocsPrs = (): number =>
    [...gh.pulls].filter(([key, p]) => key.startsWith(`${DOCS}#`) && p.state === 'open').length

  let maxOpen = 0
  let cancelled = 0
  const runs: {
    at: number
    requests: number
    news: number
    writes: number
    connections: number
  }[] = []
  const handedAt = new Map<string, number[]>()
  const writeAts: number[] = []
  let seenPrompts = 0
  let i = 0
  let pending: Trigger | undefined
  while (i < triggers.length || pending) {
    let trigger = pending
    pending = undefined
    if (!trigger) {
      trigger = triggers[i++] as Trigger
      if (trigger.at > clock.wallNow()) await clock.sleep(trigger.at - clock.wallNow())
    }
    mergeDue()
    reviewDue()
    if (!trigger.repo && trigger.kind === 'dispatch') continue
    const marks = project.dashboards().length ? project.watermarks() : {}
    const news = repositories.filter(r => marks[r] !== gh.headOf(r)).length
    gh.requests.length = 0
    gh.connections = 0
    const result = await runInProcess({ clock, ...stepOf(trigger) })
    if (result.code !== 0) throw new Error(`bench run failed:\n${result.log}`)
    runs.push({
      at: clock.wallNow(),
      requests: gh.requests.length,
      news,
      writes: gh.requests.filter(r => r.method !== 'GET' && r.path !== '/graphql').length,
      connections: gh.connections
    })
    // Each prompt this run sent: which merges it handed over.
    const all = [...sim.requests('create'), ...sim.requests('message')].sort((a, b) => a.at - b.at)
    const sentNow = all.slice(seenPrompts)
    seenPrompts = all.length
    for (const exchange of sentNow) {
      writeAts.push(exchange.at)
      const prompt = (exchange.requestBody as { prompt?: string }).prompt ?? ''
      for (const tag of prompt.match(/\[r\d+-m\d{3}\]/g) ?? [])
        handedAt.set(tag, [...(handedAt.get(tag) ?? []), exchange.at])
    }
    const link = result.outputs.prLink
    if (link && !gh.pulls.has(`${DOCS}#${link.split('/').pop()}`)) {
      const pull = gh.addPull(DOCS, {
        number: Number(link.split('/').pop()),
        state: 'open',
        merged: false,
        user: { login: 'mintlify[bot]', type: 'Bot' },
        createdAt: clock.wallNow()
      })
      reviews.push({ at: clock.wallNow() + REVIEW_AFTER, pull })
    }
    maxOpen = Math.max(maxOpen, openDocsPrs())
    // What arrived while it ran: GitHub keeps the newest pending run of the group, cancels the rest.
    const arrived: Trigger[] = []
    while (i < triggers.length && (triggers[i] as Trigger).at <= clock.wallNow())
      arrived.push(triggers[i++] as Trigger)
    const live = arrived.filter(t => t.kind === 'schedule' || t.repo)
    cancelled += Math.max(0, live.length - 1)
    pending = live[live.length - 1]
  }
  await servers.close()

  const inPrompts = merges.map(m => handedAt.get(m.tag) ?? [])
  const missed = inPrompts.filter(h => h.length === 0).length
  const twice = inPrompts.filter(h => h.length > 1).length
  const waits = merges.map((m, k) => ((inPrompts[k]?.[0] ?? m.at) - m.at) / HOUR)
  const writeTimes = writeAts.sort((a, b) => a - b)
  const within = (span: number): number =>
    Math.max(0, ...writeTimes.map(t => writeTimes.filter(u => u >= t && u < t + span).length))
  const perDay = Array.from({ length: DAYS + 1 }, (_, d) =>
    runs.filter(r => r.at >= start + d * DAY && r.at < start + (d + 1) * DAY).map(r => r.requests)
  )
    .filter(day => day.length)
    .map(median)
  // The bound: one read of every repository's head, two reads per repository with news (its
  // history and its pull requests), and the ledger's (the dashboard, the docs pull request) besides.
  const ledgerShare = Math.max(
    ...runs.map(r => r.requests - HEADS_READ - PER_REPOSITORY_WITH_NEWS * r.news)
  )
  const byNews = new Map<number, number[]>()
  for (const r of runs) byNews.set(r.news, [...(byNews.get(r.news) ?? []), r.requests])
  const maxWritesPerHour = within(HOUR)
  const maxWritesPerDay = within(DAY)
  const result: Omit<DocsProjectResult, 'goals'> = {
    merges: merges.length,
    dispatches: { sent, lost, cancelled },
    runs: runs.length,
    missed,
    twice,
    longestWaitHours: round(Math.max(...waits)),
    maxOpenDocsPrs: maxOpen,
    writes: writeTimes.length,
    maxWritesPerHour,
    maxWritesPerDay,
    requests: {
      max: Math.max(...runs.map(r => r.requests)),
      perDay,
      ledgerShare,
      byNews: [...byNews]
        .sort((a, b) => a[0] - b[0])
        .map(([news, counts]) => ({
          news,
          runs: counts.length,
          min: Math.min(...counts),
          max: Math.max(...counts)
        }))
    },
    github: {
      writes: {
        max: Math.max(...runs.map(r => r.writes)),
        median: median(runs.map(r => r.writes))
      },
      connections: {
        max: Math.max(...runs.map(r => r.connections)),
        median: median(runs.map(r => r.connections))
      }
    }
  }
  return {
    ...result,
    goals: [
      goal('docs project: merges missed', String(missed), '0', missed === 0),
      goal('docs project: merges in two prompts', String(twice), '0', twice === 0),
      goal('docs project: open docs pull requests at once', String(maxOpen), '≤ 1', maxOpen <= 1),
      goal(
        'docs project: service writes in any hour',
        String(maxWritesPerHour),
        `< ${SERVICE_PER_HOUR}`,
        maxWritesPerHour < SERVICE_PER_HOUR
      ),
      goal(
        'docs project: service writes in any 24 hours',
        String(maxWritesPerDay),
        `≤ max-jobs ${MAX_JOBS}/day`,
        maxWritesPerDay <= MAX_JOBS
      ),
      goal(
        'docs project: GitHub requests a run, flat over the week',
        perDay.join(', '),
        'no day’s median above 1.5 × the first’s',
        perDay.every(d => d <= 1.5 * (perDay[0] ?? 0))
      ),
      goal(
        'docs project: GitHub requests a run beyond the repositories’ reads (1 for every head, 2 per repository with news)',
        String(ledgerShare),
        `≤ ${LEDGER_SHARE}, the ledger's`,
        ledgerShare <= LEDGER_SHARE
      )
    ]
  }
}

// `npx tsx bench/docs-project.ts`: this part alone, printed.
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await docsProjectBench()
  console.log(JSON.stringify(r, null, 2))
  process.exit(r.goals.every(g => g.pass) ? 0 : 1)
}
