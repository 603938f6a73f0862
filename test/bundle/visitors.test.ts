// The runner's contract for the bundled visitors sub-action: INPUT_* variables, the GITHUB_OUTPUT
// and GITHUB_STEP_SUMMARY files, ::add-mask::, exit codes and a real signal. Its flows run
// in-process from source in test/flows/visitors-export.test.ts.
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { generatedRow } from '../simulator/visitors.js'
import { expectCleanFailure, visible } from '../support/assertions.js'
import { type RunOptions, runAction, startAction } from '../support/run-action.js'

let sim: Simulator
beforeAll(async () => {
  sim = await Simulator.start()
})
afterAll(() => sim.close())
beforeEach(() => {
  sim.reset()
})

const options = (inputs: Record<string, string> = {}, files?: Record<string, string>) =>
  ({
    entry: 'dist/visitors/index.js',
    inputs: { 'api-key': SIM_API_KEY, 'project-id': SIM_PROJECT, 'api-url': sim.url, ...inputs },
    files
  }) satisfies RunOptions
const leftovers = (workspace: string) => readdirSync(workspace).filter(f => f.includes('partial'))

describe('the bundled visitors sub-action, as the runner runs it', () => {
  it('reads its inputs, writes the file, the outputs and the summary, masks the key, exits 0', async () => {
    sim.setVisitors(251)
    const result = await runAction(
      options({
        'date-from': '2026-11-01',
        'date-to': '2026-11-08',
        'output-file': 'out/visitors.json',
        'sort-by': 'ai',
        top: '3'
      })
    )
    expect(result.code).toBe(0)
    // INPUT_DATE-FROM, INPUT_OUTPUT-FILE: hyphenated names reached the action.
    expect(sim.requests('visitors').map(r => r.query)).toEqual([
      { dateFrom: '2026-11-01', dateTo: '2026-11-08', limit: '250', offset: '0' },
      { dateFrom: '2026-11-01', dateTo: '2026-11-08', limit: '250', offset: '250' }
    ])
    const doc = JSON.parse(readFileSync(path.join(result.workspace, 'out/visitors.json'), 'utf8'))
    expect(doc.visitors).toHaveLength(251)
    // Every output, read back from the GITHUB_OUTPUT file.
    expect(result.outputs).toEqual({
      human: String(doc.totals.human),
      ai: String(doc.totals.ai),
      total: String(doc.totals.total),
      pages: '251',
      file: 'out/visitors.json',
      'top-paths': expect.any(String),
      complete: 'true',
      'next-offset': ''
    })
    const byAi = Array.from({ length: 251 }, (_, i) => generatedRow(i))
      .sort((a, b) => b.ai - a.ai || (a.path < b.path ? -1 : 1))
      .slice(0, 3)
    expect(JSON.parse(result.outputs['top-paths'] as string)).toEqual(byAi.map(r => r.path))
    // The job summary, read back from the GITHUB_STEP_SUMMARY file.
    expect(result.summary).toContain('## Mintlify visitors: 2026-11-01 to 2026-11-08 (exclusive)')
    expect(result.summary).toContain('### Top 3 pages by AI visitors')
    expect(result.log).toContain(`::add-mask::${SIM_API_KEY}`)
    expect(visible(result)).not.toContain(SIM_API_KEY)
    expect(leftovers(result.workspace)).toEqual([])
  })

  it('exits 1 with one ::error:: line and no outputs, keeping the earlier file', async () => {
    sim.setVisitors(600)
    // The first page rate limited past the time limit: nothing read, nothing to keep.
    sim.inject({ route: 'visitors', kind: 'status', status: 429, retryAfter: '3600' })
    const result = await runAction(options({}, { 'mintlify-visitors.json': 'last week' }))
    expectCleanFailure(
      result,
      /The service rate limited the request: rate limited until \d{4}-.* Nothing was written/,
      [SIM_API_KEY]
    )
    expect(result.log.match(/::error::/g)).toHaveLength(1)
    expect(result.outputs).toEqual({})
    expect(readFileSync(path.join(result.workspace, 'mintlify-visitors.json'), 'utf8')).toBe(
      'last week'
    )
    expect(leftovers(result.workspace)).toEqual([])
  })

  it("stops at the runner's SIGINT mid-export: exits 1, keeps the earlier file, leaves no temporary file", async () => {
    sim.setVisitors(600)
    // The second page's answer never comes: the run ends only at the signal.
    sim.inject({ route: 'visitors', kind: 'delay', ms: Infinity, skip: 1 })
    const second = new Promise<void>(resolve => {
      const stop = sim.onRequest(() => {
        if (sim.requests('visitors').length < 2) return
        stop()
        resolve()
      })
    })
    const running = startAction(options({}, { 'mintlify-visitors.json': 'last week' }))
    await second
    running.child.kill('SIGINT')
    const result = await running.done
    expect(result.signal).toBeNull()
    expectCleanFailure(result, /Cancelled\. Nothing was written/, [SIM_API_KEY])
    expect(result.outputs).toEqual({})
    expect(readFileSync(path.join(result.workspace, 'mintlify-visitors.json'), 'utf8')).toBe(
      'last week'
    )
    expect(leftovers(result.workspace)).toEqual([])
  })
})
