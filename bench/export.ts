import path from 'node:path'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../test/simulator/server.js'
import { ROOT, dist, inputs, measure } from './processes.js'
import { type Goal, goal, median, round } from './stats.js'

/** Realistic page paths (`/guides/deploy-configure/webhooks-page-1`): the simulator's are shorter. */
export const PATH_CHARS = 40
/** Rows the sub-action exports; the naive client only the first two (it holds every row). */
const ROWS = [10_000, 100_000, 250_000, 1_000_000]
const NAIVE_ROWS = [10_000, 100_000]

export interface ExportRow {
  rows: number
  contender: string
  /** Requests, or null when the run failed (`failed` says how). */
  requests: number | null
  seconds: number | null
  peakMiB: number | null
  /** The most heap the process held just after a full collection (the sub-action only). */
  keptMiB: number | null
  failed: string | null
}

export interface ExportResult {
  rows: ExportRow[]
  goals: Goal[]
}

/**
 * The visitors export's cost in requests, time and memory as the rows grow, with 40-character paths,
 * against a naive client that pages with the default size and holds every row. The simulator's
 * hourly limit is lifted and `max-requests` set to what the rows need: these runs measure the export,
 * not the limit (the limit part does).
 */
export async function exportBench(sim: Simulator, reps: number): Promise<ExportResult> {
  const rows: ExportRow[] = []
  for (const count of ROWS) {
    sim.setVisitors(count, { pathChars: PATH_CHARS })
    const contenders = [
      {
        name: 'visitors sub-action',
        args: [dist('visitors/index.js')],
        env: inputs({
          'api-key': SIM_API_KEY,
          'project-id': SIM_PROJECT,
          'api-url': sim.url,
          'max-requests': String(Math.ceil(count / 250)),
          timeout: '1h'
        })
      },
      ...(NAIVE_ROWS.includes(count)
        ? [
            {
              name: 'naive client (page size 50)',
              args: [path.join(ROOT, 'bench/naive-export.mjs')],
              env: {
                API_URL: sim.url,
                API_KEY: SIM_API_KEY,
                PROJECT_ID: SIM_PROJECT,
                OUT: 'naive.json'
              }
            }
          ]
        : [])
    ]
    for (const c of contenders) {
      const seconds: number[] = []
      const peak: number[] = []
      const kept: number[] = []
      let requests = 0
      let failed: string | null = null
      // A million rows take a while: once is enough to see where memory goes.
      for (let rep = 0; rep < (count >= 250_000 ? 1 : reps); rep++) {
        sim.reset()
        const m = await measure(c.args, c.env, undefined, { log: true })
        if (m.code !== 0) {
          failed = /::error::(.*)/.exec(m.log)?.[1] ?? `exit ${m.code}`
          break
        }
        requests = sim.requests('visitors').length
        seconds.push(m.totalMs / 1000)
        peak.push(m.peakKiB / 1024)
      }
      // What it keeps: once more, collecting all garbage every 100 ms (which changes the peak).
      if (!failed && c.name === 'visitors sub-action') {
        sim.reset()
        const m = await measure(c.args, { ...c.env, BENCH_KEPT: '1' }, undefined, {
          nodeArgs: ['--expose-gc']
        })
        kept.push((m.keptKiB ?? Number.NaN) / 1024)
      }
      rows.push({
        rows: count,
        contender: c.name,
        requests: failed ? null : requests,
        seconds: failed ? null : round(median(seconds), 2),
        peakMiB: failed ? null : round(median(peak)),
        keptMiB: failed || kept.length === 0 ? null : round(median(kept)),
        failed
      })
    }
  }
  const ours = rows.filter(r => r.contender === 'visitors sub-action')
  const goals = ours.map(r =>
    goal(
      `Export of ${r.rows.toLocaleString('en-US')} rows: requests`,
      r.requests === null ? `failed: ${r.failed}` : String(r.requests),
      `= ceil(N/250) = ${Math.ceil(r.rows / 250)}`,
      r.requests === Math.ceil(r.rows / 250)
    )
  )
  const at = (n: number) => ours.find(r => r.rows === n)
  const small = at(100_000)
  const large = at(1_000_000)
  const kept =
    small?.keptMiB != null && large?.keptMiB != null
      ? round(large.keptMiB - small.keptMiB)
      : Number.NaN
  goals.push(
    goal(
      'Export memory kept, 1,000,000 rows against 100,000 (most heap just after a full collection)',
      `+${kept} MiB (${small?.keptMiB} → ${large?.keptMiB})`,
      '≤ +15 MiB: nothing kept per row',
      kept <= 15
    ),
    goal(
      `Export peak memory, 1,000,000 rows (Node ${process.versions.node})`,
      `${large?.peakMiB ?? large?.failed} MiB`,
      '≤ 175 MiB',
      (large?.peakMiB ?? 999) <= 175
    )
  )
  return { rows, goals }
}
