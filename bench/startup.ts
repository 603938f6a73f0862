import path from 'node:path'
import { FakeGitHub } from '../test/simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, type Simulator } from '../test/simulator/server.js'
import { nccBundle } from '../scripts/ncc.mjs'
import { ROOT, inputs, measure } from './processes.js'
import { type Goal, goal, median, round } from './stats.js'

export interface StartupResult {
  rows: { path: string; ms: number; ratio: number; peakMiB: number }[]
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
  const firstRequest = (mark: () => void) => sim.onRequest(() => mark())
  const contenders = [
    { name: 'bare Node (`node -e 0`)', args: ['-e', '0'], env: {}, until: 'exit' as const },
    {
      name: '@actions/core as published, alone, fail fast (reference)',
      args: [coreOnly],
      env: {},
      until: 'exit' as const
    },
    {
      name: 'agent action, no comment',
      args: [path.join(ROOT, 'dist/index.js')],
      env: agent,
      until: 'request' as const
    },
    {
      name: 'agent action, with a comment',
      args: [path.join(ROOT, 'dist/index.js')],
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
      args: [path.join(ROOT, 'dist/index.js')],
      env: {},
      until: 'exit' as const
    },
    {
      name: 'post step, no comment to finalise',
      args: [path.join(ROOT, 'dist/post/index.js')],
      env: {},
      until: 'exit' as const
    },
    {
      name: 'visitors sub-action',
      args: [path.join(ROOT, 'dist/visitors/index.js')],
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
  const bare = median(samples[0]?.ms ?? [])
  const rows = contenders.map((c, i) => {
    const ms = median(samples[i]?.ms ?? [])
    return {
      path: c.name,
      ms: round(ms),
      ratio: round(ms / bare, 2),
      peakMiB: round(median(samples[i]?.peak ?? []) / 1024)
    }
  })
  const [, core, plain, comment, failFast, , visitors] = rows
  const agentPeak = Math.max(...[plain, comment, failFast].map(r => r?.peakMiB ?? 999))
  const goals = [
    goal(
      'Start-up to first request, no comment',
      `${plain?.ratio}×`,
      '≤ 3.0× bare Node',
      (plain?.ratio ?? 99) <= 3.0
    ),
    goal(
      'Start-up to first request, with a comment',
      `${comment?.ratio}×`,
      '≤ 3.5× bare Node',
      (comment?.ratio ?? 99) <= 3.5
    ),
    goal(
      'Fail fast on a missing input',
      `${failFast?.ratio}×`,
      '≤ 3.0× bare Node',
      (failFast?.ratio ?? 99) <= 3.0
    ),
    goal(
      'Fail fast, against @actions/core as published failing alone',
      `${round((failFast?.ratio ?? 0) - (core?.ratio ?? 0), 2)}× (core alone: ${core?.ratio}×)`,
      '≤ +0.1× (every module beyond core earns its place or loads lazily)',
      (failFast?.ratio ?? 99) - (core?.ratio ?? 0) <= 0.1
    ),
    goal(
      'Peak memory, agent action, highest of its paths (Node ' + process.versions.node + ')',
      `${agentPeak} MiB`,
      '≤ 55 MiB',
      agentPeak <= 55
    ),
    goal(
      'Visitors sub-action start-up',
      `${visitors?.ratio}×`,
      '(measured; same bar as the main action: ≤ 3.0×)',
      (visitors?.ratio ?? 99) <= 3.0
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
