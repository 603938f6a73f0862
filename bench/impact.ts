import {
  RENAME_DOCS_FILES,
  RENAME_DOCS_TREE,
  renameWorld
} from '../test/simulator/analytics-impact.js'
import type { FakeFile } from '../test/simulator/fake-github.js'
import { APP, CodeChangeServers, DOCS_TOKEN } from '../test/support/code-change-runs.js'
import { measuringStep } from '../test/support/impact-runs.js'
import { runAction } from '../test/support/run-action.js'
import { type Goal, goal } from './stats.js'

const DAY = 86_400_000
/** The analytics requests one docs pull request may take, retries included (the bound). */
const PER_PULL = 10
const MAX_REQUESTS = 20

export interface ImpactBenchResult {
  merged: number
  runs: number
  /** Analytics requests per measured docs pull request, by kind. */
  perPull: { kind: string; pulls: number; requests: number }[]
  /** Analytics requests of each measuring run. */
  perRun: number[]
  /** GitHub requests per measured docs pull request (files, docs root, comment), the ledger's apart. */
  githubPerPull: number
  goals: Goal[]
}

/** Kinds of docs pull request: what a rename's docs change, and its terms; `pages`: it changes a page. */
const KINDS: { kind: string; title: string; files: FakeFile[]; pages: boolean }[] = [
  {
    kind: 'pages and terms',
    title: 'Rename the `--follow` flag to `--watch`',
    files: RENAME_DOCS_FILES,
    pages: true
  },
  { kind: 'pages only', title: 'Tidy the CLI output', files: RENAME_DOCS_FILES, pages: true },
  {
    kind: 'terms only',
    title: 'Rename `max_retries` to `retries`',
    files: [{ filename: 'docs/images/retries.png', status: 'added' }],
    pages: false
  }
]

/**
 * Reader impact with `impact-after: 14d` and the default `max-requests: 20`: six docs pull requests
 * (two of each kind) merged 20 days ago, measured by the bundled action in scheduled runs until none
 * is left; each run's analytics requests, each docs pull request's, and the GitHub requests.
 */
export async function impactBench(): Promise<ImpactBenchResult> {
  const servers = await CodeChangeServers.start()
  const { sim, gh } = servers
  try {
    const now = Date.now()
    gh.commitTo(APP, { message: 'Initial commit' })
    const kindOf = new Map<number, string>()
    for (const [i, k] of [...KINDS, ...KINDS].entries()) {
      servers.runId++
      const code = servers.mergeNext({ title: k.title })
      const run = await runAction(
        servers.step({
          event: servers.mergedEvent(code),
          inputs: { 'docs-token': DOCS_TOKEN, fold: 'never' }
        })
      )
      if (run.outputs.result !== 'pr-opened') throw new Error(`bench change run:\n${run.log}`)
      const number = Number((run.outputs.prLink ?? '').split('/').pop())
      kindOf.set(number, k.kind)
      gh.addPull('acme/docs', {
        number,
        state: 'closed',
        merged: true,
        createdAt: now - 25 * DAY,
        mergedAt: now - 20 * DAY + i * 60_000,
        closedAt: now - 20 * DAY + i * 60_000,
        files: k.files
      })
    }
    gh.trees.set('acme/docs', RENAME_DOCS_TREE)
    sim.answerByRange(renameWorld(now - 30 * DAY, now - 20 * DAY).answer)
    const perRun: number[] = []
    const byPull = new Map<number, number>()
    let github = 0
    for (let runs = 0; runs < 10; runs++) {
      sim.nextRun()
      gh.requests.length = 0
      const run = await runAction(measuringStep(servers))
      if (run.code !== 0) throw new Error(`bench measuring run:\n${run.log}`)
      const analytics = sim.exchanges.filter(e => e.path.startsWith('/v1/analytics/'))
      if (!analytics.length) break
      perRun.push(analytics.length)
      github += gh.requests.filter(r => r.path.startsWith('/repos/acme/docs/')).length
      // Each measured docs pull request's share: the requests of the run, split by its log lines.
      for (const m of run.log.matchAll(/Reader impact of \S+\/pull\/(\d+): measured with (\d+)/g))
        byPull.set(Number(m[1]), Number(m[2]))
    }
    const perPull = KINDS.map(k => {
      const pulls = [...byPull].filter(([n]) => kindOf.get(n) === k.kind)
      return {
        kind: k.kind,
        pulls: pulls.length,
        requests: Math.max(0, ...pulls.map(([, r]) => r))
      }
    })
    const measured = byPull.size
    const withPages = [...kindOf].filter(([, kind]) => KINDS.find(k => k.kind === kind)?.pages)
    const measuredWithPages = withPages.filter(([n]) => byPull.has(n)).length
    const total = perRun.reduce((a, b) => a + b, 0)
    return {
      merged: kindOf.size,
      runs: perRun.length,
      perPull,
      perRun,
      githubPerPull: measured ? Math.round((github / measured) * 10) / 10 : 0,
      goals: [
        // A docs pull request that changes no page of the site (here an image only) is measured
        // by nothing and spends no analytics request, on purpose (issue 27): the goal is every one
        // that changes a page, and none of the others.
        goal(
          'reader impact: every merged docs pull request that changes a page measured, none of the others',
          `${measuredWithPages} of ${withPages.length} (changing no page: ${measured - measuredWithPages} of ${kindOf.size - withPages.length})`,
          `all (changing no page: 0)`,
          measuredWithPages === withPages.length && measured === measuredWithPages
        ),
        goal(
          'reader impact: analytics requests per docs pull request',
          `${Math.max(...perPull.map(p => p.requests))}`,
          `≤ ${PER_PULL}`,
          perPull.every(p => p.requests <= PER_PULL)
        ),
        goal(
          'reader impact: analytics requests per run',
          `${Math.max(...perRun)} (of ${total} in all)`,
          `≤ max-requests (${MAX_REQUESTS})`,
          perRun.every(r => r <= MAX_REQUESTS) &&
            total === perPull.reduce((n, p) => n + p.pulls * p.requests, 0)
        )
      ]
    }
  } finally {
    await servers.close()
  }
}
