import path from 'node:path'
import { FakeGitHub } from '../test/simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../test/simulator/server.js'
import { nccBundle } from '../scripts/ncc.mjs'
import { ROOT, dist, inputs, measure } from './processes.js'
import { type Goal, goal, median, round } from './stats.js'

export interface StartupResult {
  rows: {
    path: string
    ms: number
    ratio: number
    /** To bare Node making the same request (node:http): the floor for Node and HTTP. */
    requestRatio: number
    peakMiB: number
  }[]
  goals: Goal[]
}

/** Start-up to the first request, against bare Node in the same run, interleaved to share the noise. */
export async function startupBench(sim: Simulator, reps: number): Promise<StartupResult> {
  const gh = await FakeGitHub.start()
  const coreOnly = await buildCoreOnly()
  const agent = inputs({
    'api-key': SIM_API_KEY,
    'project-id': SIM_PROJECT,
    'api-url': sim.url,
    prompt: 'Bench',
    wait: 'false'
  })
  // The first request the action sends, to the service or to GitHub: an issue run posts its
  // comment before it creates the job (it makes sure it can comment before it spends), so with a
  // comment the first request is GitHub's.
  const firstRequest = (mark: () => void) => {
    const stops = [sim.onRequest(() => mark()), gh.onRequest(() => mark())]
    return () => stops.forEach(stop => stop())
  }
  const bare = (client: 'http' | 'fetch') => ({
    name: `bare Node making the same request (${client === 'http' ? 'node:http' : 'fetch'})`,
    args: [path.join(ROOT, 'bench', 'bare-request.mjs')],
    env: { API_URL: sim.url, API_KEY: SIM_API_KEY, PROJECT_ID: SIM_PROJECT, BARE_CLIENT: client },
    until: 'request' as const
  })
  const contenders = [
    { name: 'bare Node (`node -e 0`)', args: ['-e', '0'], env: {}, until: 'exit' as const },
    bare('http'),
    bare('fetch'),
    {
      name: '@actions/core as published, alone, fail fast (reference)',
      args: [coreOnly],
      env: {},
      until: 'exit' as const
    },
    {
      name: 'agent action, no comment',
      args: [dist('index.js')],
      env: agent,
      until: 'request' as const
    },
    {
      name: 'agent action, with a comment',
      args: [dist('index.js')],
      env: {
        ...agent,
        ...inputs({ 'github-token': 'ghs_bench', 'issue-number': '1' }),
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_REPOSITORY: 'acme/docs',
        GITHUB_RUN_ID: '1',
        GITHUB_API_URL: gh.url
      },
      until: 'request' as const
    },
    {
      name: 'agent action, fail fast (no api-key)',
      args: [dist('index.js')],
      env: {},
      until: 'exit' as const
    },
    {
      name: 'post step, no comment to finalise',
      args: [dist('post/index.js')],
      env: {},
      until: 'exit' as const
    },
    {
      name: 'visitors sub-action',
      args: [dist('visitors/index.js')],
      env: inputs({ 'api-key': SIM_API_KEY, 'project-id': SIM_PROJECT, 'api-url': sim.url }),
      until: 'request' as const
    }
  ]
  const samples = contenders.map(() => ({ ms: [] as number[], peak: [] as number[] }))
  // One warm-up round fills the file cache, as a runner's second step would find it.
  for (let rep = -1; rep < reps; rep++) {
    for (const [i, c] of contenders.entries()) {
      gh.reset()
      const m = await measure(c.args, c.env, c.until === 'request' ? firstRequest : undefined)
      if (rep < 0) continue
      samples[i]?.ms.push(c.until === 'request' ? (m.markMs ?? Number.NaN) : m.totalMs)
      samples[i]?.peak.push(m.peakKiB)
    }
  }
  await gh.close()
  const bareMs = median(samples[0]?.ms ?? [])
  const floorMs = median(samples[1]?.ms ?? [])
  const rows = contenders.map((c, i) => {
    const ms = median(samples[i]?.ms ?? [])
    return {
      path: c.name,
      ms: round(ms),
      ratio: round(ms / bareMs, 2),
      requestRatio: round(ms / floorMs, 2),
      peakMiB: round(median(samples[i]?.peak ?? []) / 1024)
    }
  })
  const [, , , core, plain, comment, failFast, , visitors] = rows
  const agentPeak = Math.max(...[plain, comment, failFast].map(r => r?.peakMiB ?? 999))
  // The foundation issue's goals: the toolkit's stack (undici, getOctokit, ncc) costs start-up
  // milliseconds users do not feel; the popular JavaScript actions fail fast at 3.9× to 7.7×.
  const goals = [
    goal(
      'Start-up to first request, no comment',
      `${plain?.ratio}×`,
      '≤ 4.0× bare Node',
      (plain?.ratio ?? 99) <= 4.0
    ),
    goal(
      'Start-up to first request, with a comment',
      `${comment?.ratio}×`,
      '≤ 4.0× bare Node',
      (comment?.ratio ?? 99) <= 4.0
    ),
    goal(
      'Fail fast on a missing input',
      `${failFast?.ratio}× (@actions/core alone: ${core?.ratio}×)`,
      '≤ 3.5× bare Node',
      (failFast?.ratio ?? 99) <= 3.5
    ),
    goal(
      'Peak memory of a short job, highest of the agent paths (Node ' + process.versions.node + ')',
      `${agentPeak} MiB`,
      '≤ 100 MiB',
      agentPeak <= 100
    ),
    goal(
      'Visitors sub-action start-up',
      `${visitors?.ratio}×`,
      '≤ 4.0× bare Node, as the main action',
      (visitors?.ratio ?? 99) <= 4.0
    ),
    // Against the floor for Node and HTTP: what loading the action costs beyond making a request.
    goal(
      'Start-up to first request vs bare Node making the same request (node:http), no comment',
      `${plain?.requestRatio}×`,
      '≤ 2.5×',
      (plain?.requestRatio ?? 99) <= 2.5
    ),
    goal(
      'Visitors sub-action start-up vs bare Node making the same request (node:http)',
      `${visitors?.requestRatio}×`,
      '≤ 2.5×',
      (visitors?.requestRatio ?? 99) <= 2.5
    )
  ]
  return { rows, goals }
}

/**
 * Bundles bench/core-only.mjs with ncc as dist/ is built: @actions/core as published, the baseline
 * the "about 2.9×" refers to.
 */
async function buildCoreOnly(): Promise<string> {
  const outfile = path.join(ROOT, '.tmp', 'bench-core-only', 'index.js')
  await nccBundle(path.join(ROOT, 'bench', 'core-only.mjs'), outfile)
  return outfile
}
