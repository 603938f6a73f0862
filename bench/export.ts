import path from 'node:path'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../test/simulator/server.js'
import { ROOT, inputs, measure } from './processes.js'
import { type Goal, goal, median, round } from './stats.js'

export const EXPORT_ROWS = [10_000, 100_000]

export interface ExportResult {
  rows: { rows: number; contender: string; requests: number; seconds: number; peakMiB: number }[]
  goals: Goal[]
}

/** The visitors export against a naive client that pages with the default size and holds every row. */
export async function exportBench(sim: Simulator, reps: number): Promise<ExportResult> {
  const contenders = [
    {
      name: 'visitors sub-action',
      args: [path.join(ROOT, 'dist/visitors/index.js')],
      env: inputs({
        'api-key': SIM_API_KEY,
        'project-id': SIM_PROJECT,
        'api-url': sim.url,
        // 100,000 rows take 400 requests of 250: more than a run may make by default (50).
        'max-requests': '1000',
        timeout: '1h'
      })
    },
    {
      name: 'naive client (page size 50)',
      args: [path.join(ROOT, 'bench/naive-export.mjs')],
      env: { API_URL: sim.url, API_KEY: SIM_API_KEY, PROJECT_ID: SIM_PROJECT, OUT: 'naive.json' }
    }
  ]
  const rows: ExportResult['rows'] = []
  for (const count of EXPORT_ROWS) {
    sim.setVisitors(count)
    for (const c of contenders) {
      const seconds: number[] = []
      const peak: number[] = []
      let requests = 0
      for (let rep = 0; rep < reps; rep++) {
        sim.reset()
        const m = await measure(c.args, c.env)
        if (m.code !== 0) throw new Error(`${c.name} failed on ${count} rows`)
        requests = sim.requests('visitors').length
        seconds.push(m.totalMs / 1000)
        peak.push(m.peakKiB / 1024)
      }
      rows.push({
        rows: count,
        contender: c.name,
        requests,
        seconds: round(median(seconds), 2),
        peakMiB: round(median(peak))
      })
    }
  }
  const ours = rows.filter(r => r.contender === 'visitors sub-action')
  const goals = ours.map(r =>
    goal(
      `Export of ${r.rows.toLocaleString('en-US')} rows: requests`,
      String(r.requests),
      `= ceil(N/250) = ${Math.ceil(r.rows / 250)}`,
      r.requests === Math.ceil(r.rows / 250)
    )
  )
  const [small, large] = ours
  if (small && large) {
    const growth = round(large.peakMiB - small.peakMiB)
    goals.push(
      goal(
        'Export memory, 10× the rows',
        `+${growth} MiB (${small.peakMiB} → ${large.peakMiB})`,
        'grows with rows only (streamed: < 10 MiB)',
        growth < 10
      )
    )
  }
  return { rows, goals }
}
