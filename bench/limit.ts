import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { generatedRow } from '../test/simulator/visitors.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { PATH_CHARS } from './export.js'
import { dist, inputs, measure, outputsOf } from './processes.js'
import { type Goal, goal } from './stats.js'

/** The service's documented limit: 100 analytics requests per organisation per hour. */
export const ANALYTICS_PER_HOUR = 100
const SITE_ROWS = 100_000
const MINUTE = 60_000
/** Runs every half hour, as a schedule might: no more than 100 requests fall in any hour. */
const EVERY = 30 * MINUTE
const MAX_RUNS = 12

export interface LimitRun {
  /** Minutes after the first run, on the simulator's clock. */
  at: number
  offset: number
  exit: number | null
  requests: number
  rows: number
  nextOffset: string
  /** The warning or error it ended with, shortened. */
  said: string
}

export interface LimitResult {
  runs: LimitRun[]
  /** Rows in all the files, and whether they are the site's rows, each once, in order. */
  rowsExported: number
  exact: boolean
  /** Runs until the last row, the refused one aside. */
  runsToFinish: number | null
  goals: Goal[]
}

/**
 * The visitors export with its defaults against the simulator with the documented limit (100
 * analytics requests an hour, not lifted), on a site of 100,000 pages with 40-character paths: each
 * run goes on from the one before (`offset` from `next-offset`), one every half hour on the
 * simulator's clock, and one extra run right after the second shows what the limit does to a run
 * that comes too soon.
 */
export async function limitBench(): Promise<LimitResult> {
  let clock = Date.UTC(2026, 10, 23, 6, 0)
  const sim = await Simulator.start({
    now: () => clock,
    visitors: SITE_ROWS,
    pathChars: PATH_CHARS,
    analyticsLimitPerHour: ANALYTICS_PER_HOUR
  })
  const workspace = mkdtempSync(path.join(tmpdir(), 'bench-limit-'))
  const start = clock
  const runs: LimitRun[] = []
  let offset = 0
  let part = 0
  try {
    for (let n = 0; n < MAX_RUNS; n++) {
      const extra = n === 2
      if (!extra && n > 0) clock += EVERY
      const before = sim.requests('visitors').length
      const file = `visitors-${part}.json`
      const m = await measure(
        [dist('visitors/index.js')],
        inputs({
          'api-key': SIM_API_KEY,
          'project-id': SIM_PROJECT,
          'api-url': sim.url,
          ...(offset ? { offset: String(offset) } : {}),
          'output-file': file
        }),
        undefined,
        { workspace, log: true }
      )
      const outputs = outputsOf(m.output)
      const said = /::(?:warning|error)::(.*)/.exec(m.log)?.[1] ?? ''
      runs.push({
        at: (clock - start) / MINUTE,
        offset,
        exit: m.code,
        requests: sim.requests('visitors').length - before,
        rows: Number(outputs.pages ?? 0),
        nextOffset: outputs['next-offset'] ?? '',
        said: said.length > 160 ? `${said.slice(0, 159)}…` : said
      })
      if (m.code !== 0) {
        // Refused: the next run, at its time, goes on from the same offset. Failing on its own
        // schedule (the version before this one) means there is nothing to go on from.
        if (extra) continue
        break
      }
      part++
      if (!outputs['next-offset']) break
      offset = Number(outputs['next-offset'])
    }
    // Every part's rows, in order: the site's rows, each once?
    let rowsExported = 0
    let exact = true
    const files = readdirSync(workspace)
      .filter(f => /^visitors-\d+\.json$/.test(f))
      .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]))
    for (const f of files) {
      const doc = JSON.parse(readFileSync(path.join(workspace, f), 'utf8')) as {
        visitors: { path: string }[]
      }
      for (const row of doc.visitors) {
        if (row.path !== generatedRow(rowsExported, PATH_CHARS).path) exact = false
        rowsExported++
      }
    }
    exact &&= rowsExported === SITE_ROWS
    const finished = runs.at(-1)?.exit === 0 && runs.at(-1)?.nextOffset === ''
    const runsToFinish = finished ? runs.filter(r => r.exit === 0).length : null
    const first = runs[0]
    const refused = runs[2]
    const goals = [
      goal(
        'Visitors export with the defaults against the documented limit: the first run',
        first
          ? `exit ${first.exit}, ${first.rows.toLocaleString('en-US')} rows in ${first.requests} requests, next-offset ${first.nextOffset || 'none'}`
          : 'no run',
        'exit 0 within 50 requests, saying where to go on',
        first?.exit === 0 && first.requests <= 50 && first.nextOffset !== ''
      ),
      goal(
        `Visitors export of ${SITE_ROWS.toLocaleString('en-US')} rows within 100 requests an hour`,
        finished
          ? `${runsToFinish} runs, a run every 30 min: ${rowsExported.toLocaleString('en-US')} rows, ${exact ? 'each once' : 'NOT each once'}`
          : `not finished: ${rowsExported.toLocaleString('en-US')} rows`,
        'every row once, no run over the limit',
        finished && exact
      ),
      goal(
        'A run past the hour’s 100 requests',
        refused ? `exit ${refused.exit}: ${refused.said.slice(0, 60)}…` : 'no run',
        'fails at once, saying until when, nothing written',
        refused?.exit === 1 && /rate limited until/.test(refused.said) && refused.rows === 0
      )
    ]
    return { runs, rowsExported, exact, runsToFinish, goals }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
    await sim.close()
  }
}
