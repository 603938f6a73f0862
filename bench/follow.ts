import { createJob } from '../src/mintlify/agent-jobs.js'
import { ApiClient } from '../src/mintlify/client.js'
import { type FakeFile, FakeGitHub } from '../test/simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { runAction } from '../test/support/run-action.js'
import { type Goal, goal } from './stats.js'

const MERGES = 10
const APP = 'acme/app'
const BEFORE = '1'.repeat(40)
const AFTER = '2'.repeat(40)

export interface FollowResult {
  contenders: {
    contender: string
    jobs: number
    followUps: number
    docsPrs: number
    githubPerRun: string
  }[]
  runs: { run: string; requests: number; calls: string }[]
  goals: Goal[]
}

/**
 * Docs follow code: ten pull requests merged one after another while the docs pull request stays
 * open, the bundled action (dist/index.js, fold: open-pr) against what hand-written workflows do (a
 * compare request and a new job per merge). Counts jobs, follow-ups, docs pull requests, and the
 * GitHub requests each run makes, also for pushes and a 3,000-file change.
 */
export async function followBench(): Promise<FollowResult> {
  // Jobs (and each follow-up's work) last past the first status check (4 s): a follow-up's outcome
  // counts once the job was seen active after the message, so a shorter one would wait out the
  // action's 60 s grace period on every run.
  const sim = await Simulator.start({ job: { durationMs: 4500 }, agentLimitPerHour: 1e9 })
  const gh = await FakeGitHub.start()
  let runId = 1
  const files: FakeFile[] = [
    { filename: 'src/client.ts', additions: 30, deletions: 4, patch: '@@ -1 +1 @@\n+retries' },
    { filename: 'src/retry.ts', status: 'added', additions: 80 }
  ]
  const run = async (eventName: string, event: unknown, extra: Record<string, string> = {}) => {
    gh.requests.length = 0
    const result = await runAction({
      inputs: {
        'api-key': SIM_API_KEY,
        'project-id': SIM_PROJECT,
        'api-url': sim.url,
        'github-token': 'ghs_bench',
        'poll-interval': '1s',
        ...extra
      },
      event,
      env: {
        GITHUB_EVENT_NAME: eventName,
        GITHUB_REPOSITORY: APP,
        GITHUB_RUN_ID: String(runId++),
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_API_URL: gh.url
      }
    })
    if (result.code !== 0) throw new Error(`bench run failed:\n${result.log}`)
    const calls = gh.requests.map(r => `${r.method} ${r.path.replace(`/repos/${APP}`, '')}`)
    return { result, requests: calls.length, calls: summarise(calls) }
  }
  const merged = (number: number, many = files) => {
    gh.addPull(APP, { number, title: `Change ${number}`, body: 'Adds an option.', files: many })
    return {
      action: 'closed',
      number,
      pull_request: gh.pullView(APP, number),
      sender: { login: 'maintainer', type: 'User' }
    }
  }

  try {
    // The action: the first merge starts a job; while its docs pull request is open, the rest join it.
    const perRun: number[] = []
    const runs: FollowResult['runs'] = []
    for (let n = 1; n <= MERGES; n++) {
      const r = await run('pull_request', merged(n))
      perRun.push(r.requests)
      if (n <= 2) runs.push({ run: n === 1 ? 'merged PR: new job' : 'merged PR: folded', ...r })
      const docsPr = r.result.outputs.prLink
      if (n === 1 && docsPr)
        gh.addPull('acme/docs', { number: Number(docsPr.split('/').pop()), state: 'open' })
    }
    const created = sim.requests('create').length
    const followUps = sim.requests('message').length
    const docsPrs = new Set([...sim.jobs.values()].map(j => j.prLink).filter(Boolean)).size

    // Pushes: with a pull request (comment) and a new branch without one.
    const commit = { sha: AFTER, message: 'Add retries (#20)', files }
    gh.comparisons.set(`${BEFORE}...${AFTER}`, [commit])
    gh.addPull(APP, { number: 20, files })
    gh.commits.set(AFTER, { ...commit, pulls: [20] })
    const push = (before: string) => ({
      ref: 'refs/heads/main',
      before,
      after: AFTER,
      sender: { login: 'maintainer', type: 'User' }
    })
    runs.push({ run: 'push with its PR: folded', ...(await run('push', push(BEFORE))) })
    gh.commits.set(AFTER, { ...commit, pulls: [] })
    runs.push({
      run: 'push of a new branch, no PR, fold: never',
      ...(await run('push', push('0'.repeat(40)), { fold: 'never' }))
    })
    const huge: FakeFile[] = Array.from({ length: 3000 }, (_, i) => ({
      filename: `src/gen/m${i}.ts`,
      patch: `@@ -1 +1 @@\n${'+x\n'.repeat(100)}`
    }))
    runs.push({
      run: '3,000-file PR, include-diff',
      ...(await run('pull_request', merged(30, huge), { 'include-diff': 'true' }))
    })

    // What hand-written workflows do: the compare API, then a new job, for every merge.
    const before = sim.requests('create').length
    const client = new ApiClient({ baseUrl: new URL(sim.url), apiKey: SIM_API_KEY })
    let handGitHub = 0
    for (let n = 1; n <= MERGES; n++) {
      gh.requests.length = 0
      await fetch(`${gh.url}/repos/${APP}/compare/${BEFORE}...${AFTER}`).then(r => r.arrayBuffer())
      handGitHub += gh.requests.length
      // Short jobs: nothing waits for them, and their pull requests are counted below.
      sim.planNext({ durationMs: 300 })
      await createJob(client, SIM_PROJECT, `Update the docs for change ${n}`, Date.now() + 30_000)
    }
    await client.close()
    await new Promise(resolve => setTimeout(resolve, 400))
    for (const job of [...sim.jobs.values()].slice(-MERGES)) {
      await fetch(`${sim.url}/v2/agent/${SIM_PROJECT}/job/${job.id}`, {
        headers: { authorization: `Bearer ${SIM_API_KEY}` }
      }).then(r => r.arrayBuffer())
    }
    const handJobs = sim.requests('create').length - before
    const handPrs = new Set(
      [...sim.jobs.values()]
        .slice(-MERGES)
        .map(j => j.prLink)
        .filter(Boolean)
    ).size

    const range = (values: number[]) =>
      Math.min(...values) === Math.max(...values)
        ? String(values[0])
        : `${Math.min(...values)}–${Math.max(...values)}`
    const mergedRuns = perRun
    return {
      contenders: [
        {
          contender: 'this action (fold: open-pr)',
          jobs: created,
          followUps,
          docsPrs,
          githubPerRun: range(mergedRuns)
        },
        {
          contender: 'hand-written workflow (compare + new job)',
          jobs: handJobs,
          followUps: 0,
          docsPrs: handPrs,
          githubPerRun: String(handGitHub / MERGES)
        }
      ],
      runs: runs.map(({ run, requests, calls }) => ({ run, requests, calls })),
      goals: [
        goal(
          `${MERGES} merges, docs PR open: jobs created / follow-ups`,
          `${created} / ${followUps} (hand-written: ${handJobs} / 0)`,
          `1 / ${MERGES - 1}`,
          created === 1 && followUps === MERGES - 1
        ),
        goal(
          'GitHub requests per merged-PR run (no include-diff)',
          range(mergedRuns),
          '≤ 6',
          Math.max(...mergedRuns) <= 6
        ),
        goal(
          'GitHub requests per run, any change (3,000 files and include-diff too)',
          String(Math.max(...runs.map(r => r.requests))),
          '≤ 8',
          Math.max(...runs.map(r => r.requests)) <= 8
        )
      ]
    }
  } finally {
    await sim.close()
    await gh.close()
  }
}

/** `GET /pulls/1/files ×3` style: the calls of one run, repeats counted. */
function summarise(calls: string[]): string {
  const counts = new Map<string, number>()
  for (const call of calls) {
    const key = call.replace(/[0-9a-f]{40}/g, '{sha}').replace(/\/\d+(?=\/|$)/g, '/{n}')
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ')
}
