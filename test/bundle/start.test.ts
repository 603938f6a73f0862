import { spawn } from 'node:child_process'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { limitChild } from '../support/child-limit.js'
import { ROOT, RUN_LIMIT_MS } from '../support/run-action.js'

// `npm start` as a new user runs it: scripts/start.ts through tsx, on the bundle (dist/, or the
// fresh one ACTION_DIST names), with a service standing in for the real one that must stay untouched
// unless --live says otherwise.
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx')
let service: Simulator | undefined

afterEach(async () => {
  await service?.close()
  service = undefined
})

function start(
  args: string[],
  env: Record<string, string> = {}
): Promise<{ code: number | null; out: string }> {
  const child = spawn(TSX, ['scripts/start.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, MINTLIFY_API_KEY: '', MINTLIFY_PROJECT_ID: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  // tsx compiles the script first: a few seconds of CPU more than a bundle's run.
  limitChild(child, 2 * RUN_LIMIT_MS, line => (out += `\n${line}\n`))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', code => resolve({ code, out }))
  })
}

/**
 * A service at MINTLIFY_API_URL that would answer as the real one: it counts what reaches it. Its
 * jobs are done when created, so a run does not wait 4 s for its first status check.
 */
async function realService(): Promise<Record<string, string>> {
  service = await Simulator.start({ job: { durationMs: 0 } })
  return {
    MINTLIFY_API_KEY: SIM_API_KEY,
    MINTLIFY_PROJECT_ID: SIM_PROJECT,
    MINTLIFY_API_URL: service.url
  }
}

describe('npm start', () => {
  it('prints the usage for --help and starts nothing', async () => {
    // Before: '--help' was sent to the agent as the prompt.
    const { code, out } = await start(['--help'])
    expect(code).toBe(0)
    expect(out).toMatch(/^Usage: npm start/)
    expect(out).not.toMatch(/listening|Creating an agent job/)
  })

  it('shows the label → job → comment story on the simulator, even with a key and project in the environment', async () => {
    // Before: MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID in the shell sent the run to the real service.
    const env = await realService()
    const { code, out } = await start([], env)
    expect(service?.exchanges).toHaveLength(0)
    expect(code).toBe(0)
    expect(out).toMatch(/API simulator listening on http:\/\/127\.0\.0\.1:\d+ \(nothing leaves/)
    expect(out).toMatch(/=== the comment on issue #7, posted ===\n⏳ \*\*Mintlify agent\*\*/)
    expect(out).toMatch(/=== the comment on issue #7, edited \(version \d\) ===/)
    expect(out).toMatch(
      /--- the comment on issue #7, as the run left it ---\n✅ \*\*Mintlify agent\*\* opened a pull request/
    )
    expect(out).toMatch(/^result: pr-opened$/m)
    expect(out).not.toContain(SIM_API_KEY)
    expect(out).not.toContain('ghs_local_fake_token')
  }, 60_000)

  it('reaches the service at MINTLIFY_API_URL only with --live, and runs a prompt-only run with --prompt', async () => {
    const env = await realService()
    const { code, out } = await start(['--live', '--prompt', 'Document the CLI flags'], env)
    expect(code).toBe(0)
    expect(out).toContain(`The real Mintlify service (--live): ${env.MINTLIFY_API_URL}`)
    expect(service?.requests('create')).toHaveLength(1)
    expect(JSON.stringify(service?.requests('create')[0]?.requestBody)).toContain(
      'Document the CLI flags'
    )
    expect(out).not.toMatch(/the comment on issue/)
    expect(out).not.toContain(SIM_API_KEY)
  }, 60_000)

  it('refuses --live without a key, and a bare word, before starting anything', async () => {
    const live = await start(['--live'])
    expect(live.code).toBe(2)
    expect(live.out).toMatch(/--live needs MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID/)
    const word = await start(['Document', 'it'])
    expect(word.code).toBe(2)
    expect(word.out).toMatch(/'Document' is not an option/)
  })
})
