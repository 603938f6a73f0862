import { performance } from 'node:perf_hooks'
import { runAgentJob } from '../src/agent/run-job.js'
import { type AgentJob, createJob, getJob } from '../src/mintlify/agent-jobs.js'
import { ApiClient } from '../src/mintlify/client.js'
import { type Clock, systemClock } from '../src/runner/clock.js'
import { silentLogger } from '../src/runner/logger.js'
import { isTerminal } from '../src/agent/outcome.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { type Goal, goal, median, round } from './stats.js'

export const LENGTHS_S = process.env.BENCH_LENGTHS
  ? process.env.BENCH_LENGTHS.split(',').map(Number)
  : [3, 30, 300]
const CONTENDERS = ['action (defaults)', 'fixed 10 s loop', 'fixed 2 s loop'] as const
type Contender = (typeof CONTENDERS)[number]

export interface WaitingResult {
  scale: number
  reps: number
  rows: { lengthS: number; contender: Contender; delayS: number; requests: number }[]
  goals: Goal[]
}

/**
 * Detection delay and status requests for jobs of 3 s, 30 s and 5 min, each length jittered ±20%
 * across repetitions (the same lengths for every contender), with time compressed `scale` times for
 * every contender alike: the simulator's clock and every sleep run on the same virtual time.
 */
export async function waitingBench(reps: number, scale: number): Promise<WaitingResult> {
  const realStart = performance.now()
  const epoch = Date.now()
  const now = (): number => epoch + (performance.now() - realStart) * scale
  const clock: Clock = {
    now,
    wallNow: () => Math.round(now()),
    sleep: (ms, signal) => systemClock.sleep(ms / scale, signal),
    // Request time limits stay real, as before: the simulator answers in milliseconds.
    timeout: ms => systemClock.timeout(ms)
  }
  const sim = await Simulator.start({ now: () => Math.round(now()), agentLimitPerHour: 1e9 })
  const client = new ApiClient({ baseUrl: new URL(sim.url), apiKey: SIM_API_KEY, clock })
  const deadline = (): number => now() + 3 * 3_600_000

  /** What a hand-written curl loop does: create, then check, and sleep `interval` while active. */
  const loop = (interval: number) => async (): Promise<AgentJob> => {
    let job = await createJob(client, SIM_PROJECT, 'Bench', deadline())
    for (;;) {
      job = await getJob(client, SIM_PROJECT, job.id, deadline())
      if (isTerminal(job.status)) return job
      await clock.sleep(interval)
    }
  }
  const action = async (): Promise<AgentJob> => {
    const request = {
      projectId: SIM_PROJECT,
      prompt: 'Bench',
      wait: true,
      timeoutMs: 3 * 3_600_000,
      pollIntervalMs: 10_000
    }
    return (await runAgentJob(client, request, { clock, log: silentLogger, onJob: () => {} })).job
  }
  const run: Record<Contender, () => Promise<AgentJob>> = {
    'action (defaults)': action,
    'fixed 10 s loop': loop(10_000),
    'fixed 2 s loop': loop(2000)
  }

  const samples = new Map<string, { delay: number[]; requests: number[] }>()
  for (const lengthS of LENGTHS_S) {
    for (let rep = 0; rep < reps; rep++) {
      const durationMs = Math.round(lengthS * 1000 * (0.8 + (0.4 * (rep + 0.5)) / reps))
      for (const _ of CONTENDERS) sim.planNext({ durationMs })
      await Promise.all(
        CONTENDERS.map(async name => {
          const job = await run[name]()
          const seenAt = now()
          const requests = sim.requests('get').filter(e => e.path.endsWith(`/${job.id}`)).length
          const key = `${lengthS}|${name}`
          const entry = samples.get(key) ?? { delay: [], requests: [] }
          entry.delay.push(seenAt - (sim.terminalAt(job.id) as number))
          entry.requests.push(requests)
          if (process.env.BENCH_DEBUG) {
            const created = (sim.terminalAt(job.id) as number) - durationMs
            const checks = sim
              .requests('get')
              .filter(e => e.path.endsWith(`/${job.id}`))
              .map(e => `${((e.at - created) / 1000).toFixed(2)}:${e.status ?? '-'}`)
            console.error(
              `${lengthS}s T=${durationMs} ${name}: ${requests} requests, delay ${Math.round(seenAt - (sim.terminalAt(job.id) as number))} [${checks.join(' ')}]`
            )
          }
          samples.set(key, entry)
        })
      )
    }
  }
  await client.close()
  await sim.close()

  const rows = LENGTHS_S.flatMap(lengthS =>
    CONTENDERS.map(contender => {
      const s = samples.get(`${lengthS}|${contender}`) as { delay: number[]; requests: number[] }
      return {
        lengthS,
        contender,
        delayS: round(median(s.delay) / 1000, 2),
        requests: median(s.requests)
      }
    })
  )
  const at = (lengthS: number, contender: Contender) =>
    rows.find(r => r.lengthS === lengthS && r.contender === contender)
  const goals: Goal[] = []
  const fast = at(3, 'action (defaults)')
  goals.push(
    goal(
      '3 s job: median detection delay',
      `${fast?.delayS} s`,
      '≤ 1.5 s',
      (fast?.delayS ?? 99) <= 1.5
    )
  )
  for (const lengthS of LENGTHS_S) {
    const ours = at(lengthS, 'action (defaults)')
    const base = at(lengthS, 'fixed 10 s loop')
    if (!ours || !base) continue
    const label = lengthS < 60 ? `${lengthS} s` : `${lengthS / 60} min`
    goals.push(
      goal(
        `${label} job: delay vs the 10 s loop`,
        `${ours.delayS} s vs ${base.delayS} s`,
        '≤ the loop',
        ours.delayS <= base.delayS
      )
    )
    const ratio = round(ours.requests / base.requests, 2)
    const bar = lengthS === 3 ? 1 : 1.1
    goals.push(
      goal(
        `${label} job: status requests vs the 10 s loop`,
        `${ours.requests} vs ${base.requests} (${ratio}×)`,
        `≤ ${bar}×`,
        ratio <= bar
      )
    )
  }
  return { scale, reps, rows, goals }
}
