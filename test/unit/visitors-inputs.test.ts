import { mkdirSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseDateInput } from '../../src/runner/dates.js'
import { readVisitorsSettings } from '../../src/visitors/settings.js'
import { temporaryFolder } from '../support/temporary.js'

/** A fixed clock: Saturday 21 November 2026, 23:30 UTC. */
const NOW = Date.parse('2026-11-21T23:30:00Z')
// Removed when the file ends (its link to the temporary folder with it, not what the link reaches).
const workspace = temporaryFolder('visitors-inputs-')
mkdirSync(path.join(workspace, 'reports'))
symlinkSync(tmpdir(), path.join(workspace, 'escape'))

const base = { 'api-key': 'mint_k', 'project-id': 'proj_1' }
const read = (inputs: Record<string, string>) =>
  readVisitorsSettings(
    name => inputs[name] ?? '',
    { GITHUB_WORKSPACE: workspace },
    () => {},
    NOW
  )

describe('date inputs (fixed clock)', () => {
  it.each([
    ['today', '2026-11-21'],
    ['yesterday', '2026-11-20'],
    ['-7d', '2026-11-14'],
    ['-30D', '2026-10-22'],
    ['-0d', '2026-11-21'],
    ['2026-02-28', '2026-02-28'],
    ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00Z'],
    ['2026-01-31T12:00:00.250+02:00', '2026-01-31T12:00:00.250+02:00']
  ])('%s → %s', (raw, text) => expect(parseDateInput('date-from', raw, NOW)?.text).toBe(text))

  it('leaves an empty input out', () =>
    expect(parseDateInput('date-from', '', NOW)).toBeUndefined())

  it.each([
    '2026-02-30',
    '2026-13-01',
    '21/11/2026',
    'last week',
    '7d',
    '-d',
    '2026-01-31T25:00:00Z',
    '2026-1-5'
  ])('refuses %j, naming the input', raw =>
    expect(() => parseDateInput('date-to', raw, NOW)).toThrow(
      /Input 'date-to' must be a date: YYYY-MM-DD/
    )
  )
})

describe('readVisitorsSettings', () => {
  it('applies the defaults', () => {
    expect(read(base)).toMatchObject({
      outputFile: path.join(workspace, 'mintlify-visitors.json'),
      outputFileShown: 'mintlify-visitors.json',
      format: 'json',
      pageSize: 250,
      top: 10,
      sortBy: 'total',
      maxRequests: 50,
      timeoutMs: 600_000
    })
  })

  it('refuses an unexpanded ${{ }} key at once: every run of the sub-action needs it', () => {
    expect(() => read({ ...base, 'api-key': '${{ secrets.MINTLIFY_API_KEY }}' })).toThrow(
      /^Input 'api-key' is the text of a \$\{\{ … \}\} expression, not its value/
    )
  })

  it('takes the bounds themselves: the top 100 and 100,000 requests', () =>
    expect(read({ ...base, top: '100', 'max-requests': '100000' })).toMatchObject({
      top: 100,
      maxRequests: 100_000
    }))

  it('picks the format from the extension, or as told', () => {
    expect(read({ ...base, 'output-file': 'reports/v.CSV' }).format).toBe('csv')
    expect(read({ ...base, 'output-file': 'reports/v.txt', format: 'csv' }).format).toBe('csv')
  })

  it('resolves relative dates against the clock', () => {
    const s = read({ ...base, 'date-from': '-7d', 'date-to': 'today' })
    expect([s.dateFrom?.text, s.dateTo?.text]).toEqual(['2026-11-14', '2026-11-21'])
  })

  it.each([
    [{ 'date-from': 'soon' }, /Input 'date-from' must be a date/],
    [
      { 'date-from': '2026-11-21', 'date-to': '2026-11-21' },
      /'date-from' \(2026-11-21\) must be before 'date-to' \(2026-11-21\); 'date-to' is exclusive/
    ],
    [{ 'date-from': 'today', 'date-to': '-7d' }, /must be before 'date-to'/],
    [{ 'page-size': '0' }, /Input 'page-size' must be a whole number from 1 to 250; got '0'/],
    [{ 'page-size': '251' }, /Input 'page-size' must be a whole number from 1 to 250/],
    [{ 'page-size': '2.5' }, /Input 'page-size' must be a whole number/],
    [{ top: '0' }, /Input 'top' must be a whole number from 1 to 100/],
    [{ top: '101' }, /Input 'top' must be a whole number from 1 to 100; got '101'/],
    [{ 'max-requests': '0' }, /Input 'max-requests' must be a whole number from 1 to 100000/],
    [{ 'max-requests': '100001' }, /Input 'max-requests' must be a whole number from 1 to 100000/],
    [{ format: 'xml' }, /Input 'format' must be one of auto, json, csv; got 'xml'/],
    [{ 'output-file': 'v.txt' }, /'format' is 'auto', but 'v.txt' ends in neither .json nor .csv/],
    [{ 'sort-by': 'views' }, /Input 'sort-by' must be one of total, human, ai; got 'views'/],
    [
      { 'output-file': '../outside.json' },
      /Input 'output-file' must be a file path inside the workspace; '..\/outside.json' is outside it/
    ],
    [{ 'output-file': '/etc/v.json' }, /must be a file path inside the workspace/],
    [{ 'output-file': 'escape/v.json' }, /leads outside the workspace through a symbolic link/],
    [{ timeout: 'later' }, /Input 'timeout' must be a duration/],
    [{ timeout: '10' }, /Input 'timeout' needs a unit: write '10m' for 10 minutes or '10s'/],
    [{ 'api-url': 'http://analytics.example.com' }, /Input 'api-url' must use https:\/\//],
    [{ 'project-id': '..' }, /Input 'project-id' must be an ID/]
  ])('refuses %j', (override, message) =>
    expect(() => read({ ...base, ...override })).toThrow(message)
  )
})
