import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseSignals, readGapsSettings } from '../../src/gaps/settings.js'
import { temporaryFolder } from '../support/temporary.js'

/** A fixed clock: Monday 23 November 2026, 06:30 UTC (the weekly example's schedule). */
const NOW = Date.parse('2026-11-23T06:30:00Z')
const workspace = temporaryFolder('gaps-inputs-')
const base = { 'api-key': 'mint_k', 'project-id': 'proj_1' }
const read = (inputs: Record<string, string>) =>
  readGapsSettings(
    name => inputs[name] ?? '',
    { GITHUB_WORKSPACE: workspace },
    () => {},
    NOW
  )

describe('readGapsSettings', () => {
  it('applies the defaults of gaps/action.yml', () => {
    expect(read(base)).toMatchObject({
      signals: ['searches', 'feedback', 'assistant'],
      top: 10,
      minHits: 2,
      maxRequests: 20,
      outputFile: path.join(workspace, 'mintlify-gaps.json'),
      outputFileShown: 'mintlify-gaps.json',
      format: 'json',
      timeoutMs: 600_000
    })
    expect(read(base).dateFrom).toBeUndefined()
  })

  it('refuses an unexpanded ${{ }} key at once: every run of the sub-action needs it', () => {
    expect(() => read({ ...base, 'api-key': '${{ secrets.MINTLIFY_API_KEY }}' })).toThrow(
      /^Input 'api-key' is the text of a \$\{\{ … \}\} expression, not its value/
    )
  })

  it('reads the weekly example: the last seven full days', () => {
    const settings = read({ ...base, 'date-from': '-7d', 'date-to': 'today' })
    expect([settings.dateFrom?.text, settings.dateTo?.text]).toEqual(['2026-11-16', '2026-11-23'])
  })

  it.each([
    ['report.md', 'markdown'],
    ['out/REPORT.MARKDOWN', 'markdown'],
    ['out/gaps.json', 'json']
  ])('writes %s as %s', (file, format) =>
    expect(read({ ...base, 'output-file': file }).format).toBe(format)
  )

  it('refuses a timeout without a unit, saying to write 10m or 10s', () =>
    expect(() => read({ ...base, timeout: '10' })).toThrow(
      "Input 'timeout' needs a unit: write '10m' for 10 minutes or '10s' for 10 seconds; got '10'."
    ))

  it.each([
    [{ top: '101' }, "Input 'top' must be a whole number from 1 to 100; got '101'."],
    [{ 'max-requests': '0' }, /Input 'max-requests' must be a whole number from 1 to 100; got '0'/],
    [{ 'max-requests': '101' }, /Input 'max-requests' must be a whole number from 1 to 100; got/]
  ])('refuses %j', (override, message) =>
    expect(() => read({ ...base, ...override })).toThrow(message)
  )

  it('takes the bounds themselves: the top 100 and the hourly allowance of 100 requests', () =>
    expect(read({ ...base, top: '100', 'max-requests': '100' })).toMatchObject({
      top: 100,
      maxRequests: 100
    }))

  it('masks the key before anything else can fail', () => {
    const masked: string[] = []
    expect(() =>
      readGapsSettings(
        name => ({ ...base, top: '0' })[name] ?? '',
        { GITHUB_WORKSPACE: workspace },
        s => masked.push(s),
        NOW
      )
    ).toThrow(/Input 'top'/)
    expect(masked).toEqual(['mint_k'])
  })
})

describe('parseSignals', () => {
  it.each([
    ['assistant', ['assistant']],
    ['Assistant, SEARCHES', ['searches', 'assistant']],
    ['feedback feedback', ['feedback']],
    ['searches,,feedback,', ['searches', 'feedback']]
  ])('%j → %j, in the fixed order', (raw, signals) => expect(parseSignals(raw)).toEqual(signals))

  it.each(['', ' , ', 'clicks', 'searches,views'])('refuses %j', raw =>
    expect(() => parseSignals(raw)).toThrow(/Input 'signals' must be a comma-separated list/)
  )
})
