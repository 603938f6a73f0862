import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '../support/run-action.js'

const load = <T>(file: string): T => parse(readFileSync(path.join(ROOT, file), 'utf8')) as T

interface Step {
  uses?: string
  with?: Record<string, unknown>
}
interface Workflow {
  on: Record<string, unknown>
  permissions?: Record<string, string>
  concurrency?: { group: string; 'cancel-in-progress': unknown }
  jobs: Record<
    string,
    { permissions?: Record<string, string>; 'timeout-minutes'?: number; steps: Step[] }
  >
}
const workflows = readdirSync(path.join(ROOT, '.github', 'workflows')).map(
  f => [f, load<Workflow>(path.join('.github', 'workflows', f))] as const
)

describe("the repository's workflows", () => {
  it.each(workflows)('%s gives every job a time limit', (_file, workflow) => {
    for (const job of Object.values(workflow.jobs)) {
      expect(job['timeout-minutes']).toBeGreaterThan(0)
    }
  })

  it.each(['ci.yml', 'codeql.yml'])(
    '%s runs once per ref and cancels only on pull requests',
    file => {
      expect(load<Workflow>(path.join('.github', 'workflows', file)).concurrency).toEqual({
        group: '${{ github.workflow }}-${{ github.ref }}',
        'cancel-in-progress': "${{ github.event_name == 'pull_request' }}"
      })
    }
  )

  it('CodeQL scans JavaScript and TypeScript on main, pull requests and weekly, with least rights', () => {
    const codeql = load<Workflow>('.github/workflows/codeql.yml')
    expect(Object.keys(codeql.on).sort()).toEqual(['pull_request', 'push', 'schedule'])
    expect(codeql.on.push).toEqual({ branches: ['main'] })
    expect(codeql.permissions).toEqual({})
    const jobs = Object.values(codeql.jobs)
    expect(jobs).toHaveLength(1)
    const [job] = jobs
    expect(job?.permissions).toEqual({
      actions: 'read',
      contents: 'read',
      'security-events': 'write'
    })
    const uses = job?.steps.flatMap(s => (s.uses ? [s.uses] : [])) ?? []
    // init and analyze must be the same version: one commit, pinned by SHA as every action here.
    const codeqlSteps = uses.filter(u => u.startsWith('github/codeql-action/'))
    const [initRef, analyzeRef] = codeqlSteps.map(u => u.split('@')[1])
    expect(codeqlSteps).toEqual([
      expect.stringMatching(/^github\/codeql-action\/init@[0-9a-f]{40}$/),
      expect.stringMatching(/^github\/codeql-action\/analyze@[0-9a-f]{40}$/)
    ])
    expect(analyzeRef).toBe(initRef)
    const init = job?.steps.find(s => s.uses?.startsWith('github/codeql-action/init@'))
    expect(init?.with?.languages).toBe('javascript-typescript')
    const checkout = job?.steps.find(s => s.uses?.startsWith('actions/checkout@'))
    expect(checkout?.with?.['persist-credentials']).toBe(false)
  })
})

describe('.github/dependabot.yml', () => {
  interface Update {
    'package-ecosystem': string
    directory: string
    schedule: { interval: string }
    groups?: Record<
      string,
      { 'dependency-type'?: string; 'update-types'?: string[]; patterns?: string[] }
    >
  }
  const config = load<{ version: number; updates: Update[] }>('.github/dependabot.yml')
  const update = (ecosystem: string): Update | undefined =>
    config.updates.find(u => u['package-ecosystem'] === ecosystem)

  it('updates npm packages and actions weekly', () => {
    expect(config.version).toBe(2)
    expect(config.updates.map(u => u['package-ecosystem']).sort()).toEqual([
      'github-actions',
      'npm'
    ])
    for (const u of config.updates) {
      expect(u.directory).toBe('/')
      expect(u.schedule.interval).toBe('weekly')
    }
  })

  it('groups development and production packages, minor and patch, and all actions', () => {
    const groups = Object.values(update('npm')?.groups ?? {})
    expect(groups.map(g => g['dependency-type']).sort()).toEqual(['development', 'production'])
    for (const group of groups) expect(group['update-types']).toEqual(['minor', 'patch'])
    expect(Object.values(update('github-actions')?.groups ?? {})).toEqual([{ patterns: ['*'] }])
  })
})
