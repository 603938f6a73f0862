import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { BIG_SITE, bigSiteGapsData } from '../test/simulator/analytics-data.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import {
  expectedFeedback,
  expectedQuestions,
  expectedSearches
} from '../test/support/gaps-expected.js'
import type { Cause } from '../src/gaps/report.js'
import { datedGaps, renameWorld } from '../test/simulator/analytics-dated.js'
import { FakeGitHub } from '../test/simulator/fake-github.js'
import { APP } from '../test/support/code-change-runs.js'
import {
  dashboardWithLedger,
  ledgerWith,
  otherChanges,
  renameRepository
} from '../test/support/gaps-causes-world.js'
import { dist, inputs, measure, outputsOf } from './processes.js'
import { type Goal, goal, median, round } from './stats.js'

const SIGNALS = ['searches', 'feedback', 'assistant'] as const
type Signal = (typeof SIGNALS)[number]

export interface GapsBenchResult {
  requests: number
  /** The report's `complete`, and `top-complete` when the version has it. */
  complete: boolean
  topComplete: boolean | null
  /** Per signal: its requests, whether its top 10 is the true top 10, and what was left unread. */
  signals: { signal: Signal; requests: number; trueTop: boolean; unread: string }[]
  seconds: number
  peakMiB: number
  goals: Goal[]
}

interface Section {
  requests: number
  unread: string | null
  entries: Record<string, unknown>[]
}

/**
 * The docs-gaps sub-action with its defaults on the big site (100,000 search events over
 * 20,000 terms, 10,000 feedback entries, 10,000 assistant turns), against the simulator with the
 * documented limit: requests, completeness, whether each signal's top 10 is the true top 10 (worked
 * out from the rows, test/support/gaps-expected.ts), time and memory.
 */
export async function gapsBench(reps: number): Promise<GapsBenchResult> {
  const data = bigSiteGapsData()
  const truth: Record<Signal, Record<string, unknown>[]> = {
    searches: expectedSearches(data, 2).entries,
    feedback: expectedFeedback(data).entries.map(({ path, thumbsDown, thumbsUp }) => ({
      path,
      thumbsDown,
      thumbsUp
    })),
    assistant: expectedQuestions(data).entries
  }
  const shown: Record<Signal, (e: Record<string, unknown>) => Record<string, unknown>> = {
    searches: ({ term, hits }) => ({ term, hits }),
    feedback: ({ path, thumbsDown, thumbsUp }) => ({ path, thumbsDown, thumbsUp }),
    assistant: ({ question, count }) => ({ question, count })
  }
  const seconds: number[] = []
  const peak: number[] = []
  let last: Omit<GapsBenchResult, 'seconds' | 'peakMiB' | 'goals'> | undefined
  for (let rep = 0; rep < reps; rep++) {
    // A fresh simulator each time: each run has the hour's 100 requests to itself.
    const sim = await Simulator.start({ gaps: data })
    const workspace = mkdtempSync(path.join(tmpdir(), 'bench-gaps-'))
    try {
      const m = await measure(
        [dist('gaps/index.js')],
        inputs({ 'api-key': SIM_API_KEY, 'project-id': SIM_PROJECT, 'api-url': sim.url }),
        undefined,
        { workspace, log: true }
      )
      if (m.code !== 0) throw new Error(`the docs-gaps run failed:\n${m.log}`)
      const report = JSON.parse(readFileSync(path.join(workspace, 'mintlify-gaps.json'), 'utf8'))
      const outputs = outputsOf(m.output)
      seconds.push(m.totalMs / 1000)
      peak.push(m.peakKiB / 1024)
      last = {
        requests: sim.exchanges.length,
        complete: report.complete === true,
        topComplete:
          outputs['top-complete'] === undefined ? null : outputs['top-complete'] === 'true',
        signals: SIGNALS.map(signal => {
          const section = report[signal] as Section
          const top = section.entries.slice(0, 10).map(shown[signal])
          return {
            signal,
            requests: section.requests,
            trueTop: JSON.stringify(top) === JSON.stringify(truth[signal]),
            unread: section.unread ?? ''
          }
        })
      }
    } finally {
      rmSync(workspace, { recursive: true, force: true })
      await sim.close()
    }
  }
  const result = last as NonNullable<typeof last>
  const size = `${BIG_SITE.searchEvents.toLocaleString('en-US')} searches over ${BIG_SITE.searchTerms.toLocaleString('en-US')} terms`
  const searches = result.signals[0]
  const goals = [
    goal(
      `Docs gaps on a big site (${size}, 10,000 feedback entries, 10,000 turns): requests`,
      String(result.requests),
      '≤ 20 (the default max-requests)',
      result.requests <= 20
    ),
    goal(
      'Docs gaps on the big site: each signal’s top 10 is the true top 10',
      result.signals.map(s => `${s.signal} ${s.trueTop ? 'yes' : 'no'}`).join(', '),
      'all three',
      result.signals.every(s => s.trueTop)
    ),
    goal(
      'Docs gaps on the big site: complete says whether the tail was read',
      `complete ${result.complete}, top-complete ${result.topComplete ?? '(none)'}; searches: ${searches?.unread.slice(0, 40) || 'read'}…`,
      'complete: false naming the unread tail; top-complete: true',
      !result.complete &&
        result.topComplete === true &&
        (searches?.unread.startsWith('the tail was not read') ?? false)
    )
  ]
  return {
    ...result,
    seconds: round(median(seconds), 2),
    peakMiB: round(median(peak)),
    goals
  }
}

export interface GapsCausesBenchResult {
  /** Analytics requests of the whole run, and those that split counts at the merges. */
  requests: number
  splitRequests: number
  githubRequests: number
  changes: number
  ties: number
  /** The rename's tie as the `causes` output gives it. */
  watch: string
  seconds: number
  goals: Goal[]
}

/**
 * The docs-gaps sub-action tying gaps to changes (changes-since) in the rename world
 * (test/simulator/analytics-dated.ts) with a ledger of 100 changes: the rename, a direct push and 98
 * others merged across the range, the most a run reads. Analytics and GitHub requests per tied
 * report, counted at the simulator and the fake GitHub.
 */
export async function gapsCausesBench(): Promise<GapsCausesBenchResult> {
  const sim = await Simulator.start({})
  const gh = await FakeGitHub.start()
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-gaps-causes-'))
  try {
    sim.setGaps(datedGaps(renameWorld()))
    const repo = renameRepository(gh)
    dashboardWithLedger(gh, ledgerWith(repo, otherChanges(gh, 98)))
    const m = await measure(
      [dist('gaps/index.js')],
      {
        ...inputs({
          'api-key': SIM_API_KEY,
          'project-id': SIM_PROJECT,
          'api-url': sim.url,
          'github-token': 'ghs_bench_token',
          'date-from': '2026-11-01',
          'date-to': '2026-11-18',
          'changes-since': '2026-10-01'
        }),
        GITHUB_REPOSITORY: APP,
        GITHUB_API_URL: gh.url
      },
      undefined,
      { workspace, log: true }
    )
    if (m.code !== 0) throw new Error(`the docs-gaps run with changes-since failed:\n${m.log}`)
    const report = JSON.parse(readFileSync(path.join(workspace, 'mintlify-gaps.json'), 'utf8'))
    const causes = JSON.parse(outputsOf(m.output).causes ?? '[]') as Cause[]
    const watch = causes.find(c => c.gap.text === '--watch')
    const result = {
      requests: sim.exchanges.length,
      splitRequests: report.causes.splitRequests as number,
      githubRequests: gh.requests.length,
      changes: report.causes.changes as number,
      ties: causes.length,
      watch: watch ? `#${watch.pr}, ${watch.before} before, ${watch.after} after` : 'not tied',
      seconds: round(m.totalMs / 1000, 2)
    }
    const goals = [
      goal(
        'Docs gaps tied to 100 changes: GitHub requests per tied report',
        String(result.githubRequests),
        '≤ 15 (the dashboard, 4 queries of 25 changes, 10 diffs)',
        result.githubRequests <= 15
      ),
      goal(
        'Docs gaps tied to 100 changes: analytics requests per tied report',
        `${result.requests} (${result.splitRequests} to split)`,
        '≤ 20 (the default max-requests), split ≤ 10',
        result.requests <= 20 && result.splitRequests <= 10
      ),
      goal(
        'Docs gaps tied to 100 changes: every tie found',
        String(result.ties),
        '4 (--watch, server.listenPort, /cli/flags, the --follow question)',
        result.ties === 4
      ),
      goal(
        'Docs gaps tied to 100 changes: the rename found',
        result.watch,
        '#123, 0 before, 48 after',
        result.watch === '#123, 0 before, 48 after'
      )
    ]
    return { ...result, goals }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
    await sim.close()
    await gh.close()
  }
}
