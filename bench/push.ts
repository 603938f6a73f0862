import { FakeGitHub } from '../test/simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { CHANGES_ENTRY, bigFiles, peakOf } from './follow.js'
import { type Goal, goal } from './stats.js'

const APP = 'acme/app'
const COMMITS = 3
const FILES = 300

export interface PushResult {
  memory: { run: string; peakMiB: number }[]
  goals: Goal[]
}

/**
 * Peak memory of a run on a push of 3 commits without pull requests, sharing 300 files whose
 * patches are 1 MB each: the commit files GitHub pages through its REST API, patches and all.
 */
export async function pushBench(): Promise<PushResult> {
  const sim = await Simulator.start({ job: { durationMs: 2500 }, agentLimitPerHour: 1e9 })
  const gh = await FakeGitHub.start()
  const files = bigFiles(FILES, 1 << 20)
  const memory: PushResult['memory'] = []
  try {
    for (const diff of ['false', 'true']) {
      gh.reset()
      sim.reset()
      const before = gh.commitTo(APP, { message: 'Initial commit' }).sha
      for (let i = 0; i < COMMITS; i++) gh.commitTo(APP, { message: `Regenerate ${i}`, files })
      const after = gh.headOf(APP)
      const peak = await peakOf({
        entry: CHANGES_ENTRY,
        inputs: {
          'api-key': SIM_API_KEY,
          'project-id': SIM_PROJECT,
          'api-url': sim.url,
          'github-token': 'ghs_bench',
          'poll-interval': '1s',
          'include-diff': diff
        },
        event: {
          ref: 'refs/heads/main',
          before,
          after,
          repository: { full_name: APP, default_branch: 'main' },
          commits: [{ id: after }],
          sender: { login: 'maintainer', type: 'User' },
          pusher: { name: 'maintainer' }
        },
        env: {
          GITHUB_EVENT_NAME: 'push',
          GITHUB_REPOSITORY: APP,
          GITHUB_RUN_ID: '1',
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_API_URL: gh.url
        }
      })
      memory.push({
        run: `push of ${COMMITS} commits × ${FILES} files × 1 MB patches, include-diff: ${diff}`,
        peakMiB: peak
      })
    }
    return {
      memory,
      goals: memory.map(m =>
        goal(`peak memory, ${m.run}`, `${m.peakMiB} MiB`, '≤ 200 MiB', m.peakMiB <= 200)
      )
    }
  } finally {
    await sim.close()
    await gh.close()
  }
}
