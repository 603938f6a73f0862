import { afterAll, beforeAll, beforeEach } from 'vitest'
import { FakeGitHub } from '../simulator/fake-github.js'
import { type JobPlan, SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { VirtualClock } from './virtual-clock.js'

export interface AgentServices {
  /** The clock of the simulator; give it to every run (`clock`). */
  readonly clock: VirtualClock
  readonly sim: Simulator
  readonly gh: FakeGitHub
  /** The agent's inputs for these services: key, project, api-url, token, a check every second. */
  inputs(token: string, extra?: Record<string, string>): Record<string, string>
  /** The runner's variables for an `issues` run in acme/docs that talks to the fake GitHub. */
  env(extra?: Record<string, string>): Record<string, string>
}

/**
 * Starts the API simulator and a fake GitHub on loopback for a file's tests, on one virtual clock,
 * and closes them after the file. Before each test both are reset and @maintainer has 'write'.
 */
export function useAgentServices(job: Partial<JobPlan> = { durationMs: 300 }): AgentServices {
  const clock = new VirtualClock()
  let sim: Simulator | undefined
  let gh: FakeGitHub | undefined
  beforeAll(async () => {
    sim = await Simulator.start({ job, now: clock.wallNow })
    gh = await FakeGitHub.start()
  })
  afterAll(async () => {
    await sim?.close()
    await gh?.close()
  })
  beforeEach(() => {
    sim?.reset()
    gh?.reset()
    gh?.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
  })
  const started = <T>(service: T | undefined): T => {
    if (!service) throw new Error('the services start in beforeAll')
    return service
  }
  return {
    clock,
    get sim() {
      return started(sim)
    },
    get gh() {
      return started(gh)
    },
    inputs: (token, extra = {}) => ({
      'api-key': SIM_API_KEY,
      'project-id': SIM_PROJECT,
      'api-url': started(sim).url,
      'github-token': token,
      'poll-interval': '1s',
      ...extra
    }),
    env: (extra = {}) => ({
      GITHUB_EVENT_NAME: 'issues',
      GITHUB_REPOSITORY: 'acme/docs',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: started(gh).url,
      ...extra
    })
  }
}
