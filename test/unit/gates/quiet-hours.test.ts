import { describe, expect, it } from 'vitest'
import { isQuiet, quietHoursGate } from '../../../src/agent/gates/quiet-hours.js'
import { GATES, OWN_GATES } from '../../../src/changes/gates/order.js'
import { emptyProject } from '../../../src/records/ledger.js'
import { PolicyError } from '../../../src/policy/problems.js'
import { readPolicy } from '../../../src/policy/read.js'
import type { QuietHours } from '../../../src/policy/policy.js'
import { TestLedger, batchInput, batchOf, pull, settingsOf } from '../../support/gate-inputs.js'

const FILE = '.github/docs-agent.yml'
const quietOf = async (yaml: string): Promise<QuietHours> => {
  const policy = await readPolicy(`quiet-hours:\n${yaml}`, FILE, { repository: 'acme/docs' })
  if (!policy.quietHours) throw new Error('no quiet hours')
  return policy.quietHours
}
/** 2026-11-27 is a Friday, 2026-11-28 a Saturday; Berlin is UTC+1 in winter, UTC+2 in summer. */
const at = (iso: string): number => Date.parse(iso)

const WEEKEND_NIGHTS =
  '  days: [saturday, sunday]\n  from: "20:00"\n  to: "07:00"\n  timezone: Europe/Berlin\n'

describe('quiet hours: the policy key', () => {
  it('reads days, a daily window and a time zone, and says them as people read them', async () => {
    const quiet = await quietOf(WEEKEND_NIGHTS)
    expect(quiet).toEqual({
      days: [6, 0],
      window: { from: 20 * 60, to: 7 * 60 },
      timeZone: 'Europe/Berlin',
      text: 'saturday, sunday, 20:00–07:00 Europe/Berlin'
    })
    expect(await quietOf('  days: [sunday]\n')).toEqual({
      days: [0],
      timeZone: 'UTC',
      text: 'sunday UTC'
    })
  })

  it('refuses a window with one end, no hours at all, unknown days and time zones', async () => {
    const cases: [string, RegExp][] = [
      ['  from: "20:00"\n', /needs both from and to/],
      ['  timezone: UTC\n', /needs days, or from and to/],
      ['  days: [caturday]\n', /must be days such as/],
      ['  days: [sunday]\n  timezone: Mars/Olympus\n', /IANA time zone/],
      ['  from: "24:00"\n  to: "07:00"\n', /time of day/],
      ['  days: [sunday]\n  at: night\n', /quiet-hours/]
    ]
    for (const [yaml, message] of cases) {
      const error = await quietOf(yaml).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error, yaml).toBeInstanceOf(PolicyError)
      expect((error as Error).message, yaml).toMatch(message)
    }
  })
})

describe('quiet hours: is a moment within them', () => {
  it('reads whole days in the policy’s time zone, not the runner’s', async () => {
    const sundays = await quietOf('  days: [sunday]\n  timezone: Pacific/Auckland\n')
    // Saturday 12:00 UTC is already Sunday 01:00 in Auckland (UTC+13 in its summer).
    expect(isQuiet(sundays, at('2026-11-28T12:00:00Z'))).toBe(true)
    expect(isQuiet(sundays, at('2026-11-28T10:00:00Z'))).toBe(false)
  })

  it('takes a window that crosses midnight, its start in and its end out', async () => {
    const nights = await quietOf('  from: "20:00"\n  to: "07:00"\n  timezone: Europe/Berlin\n')
    expect(isQuiet(nights, at('2026-11-27T18:59:00Z'))).toBe(false) // 19:59 Berlin
    expect(isQuiet(nights, at('2026-11-27T19:00:00Z'))).toBe(true) // 20:00
    expect(isQuiet(nights, at('2026-11-28T05:59:00Z'))).toBe(true) // 06:59
    expect(isQuiet(nights, at('2026-11-28T06:00:00Z'))).toBe(false) // 07:00
    // In summer Berlin is UTC+2: 05:30 UTC is 07:30 there, no longer quiet.
    expect(isQuiet(nights, at('2026-07-01T05:30:00Z'))).toBe(false)
    expect(isQuiet(nights, at('2026-07-01T04:30:00Z'))).toBe(true)
  })

  it('takes a window within one day', async () => {
    const lunch = await quietOf('  from: "12:00"\n  to: "13:00"\n')
    expect(isQuiet(lunch, at('2026-11-27T12:30:00Z'))).toBe(true)
    expect(isQuiet(lunch, at('2026-11-27T13:00:00Z'))).toBe(false)
    expect(isQuiet(lunch, at('2026-11-27T11:59:00Z'))).toBe(false)
  })
})

describe('the quiet-hours gate', () => {
  const quietNow = async () => ({
    quietHours: await quietOf(WEEKEND_NIGHTS),
    now: at('2026-11-28T10:00:00Z') // Saturday 11:00 in Berlin
  })
  const batchGate = GATES.batch.find(g => g.name === quietHoursGate.name)!
  const ownGate = OWN_GATES.limits.find(g => g.name === quietHoursGate.name)!

  it('passes without quiet hours, and outside them', async () => {
    expect(await batchGate.check(batchInput())).toEqual({ kind: 'pass' })
    const quiet = await quietOf(WEEKEND_NIGHTS)
    const friday = batchInput({
      settings: settingsOf({ quietHours: quiet }),
      now: () => at('2026-11-27T10:00:00Z')
    })
    expect(await batchGate.check(friday)).toEqual({ kind: 'pass' })
  })

  it('holds the batch on the dashboard within them, saying which hours and who takes it', async () => {
    const { quietHours, now } = await quietNow()
    const held = batchInput({
      settings: settingsOf({ quietHours }),
      now: () => now,
      batch: batchOf([pull(1), pull(2)])
    })
    expect(await batchGate.check(held)).toEqual({
      kind: 'hold',
      why: 'Quiet hours (saturday, sunday, 20:00–07:00 Europe/Berlin): 2 changes wait on the dashboard; the first run after them takes them (the next merge, or a scheduled catch-up).',
      // On an empty ledger the range keeps its start, so that later changes join the batch.
      written: { base: 'a'.repeat(40) }
    })
  })

  it('lets a ticked batch through: this run’s tick, or one the dashboard kept', async () => {
    const { quietHours, now } = await quietNow()
    const settings = settingsOf({ quietHours, approval: 'dashboard' })
    const ticked = batchInput({ settings, now: () => now, approvedBy: 'lead' })
    expect(await batchGate.check(ticked)).toEqual({ kind: 'pass' })
    const kept = new TestLedger({
      ...emptyProject(),
      waiting: { id: 'b1', approvedBy: 'lead', approvedAt: now - 60_000 }
    } as never)
    expect(await batchGate.check(batchInput({ settings, now: () => now, ledger: kept }))).toEqual({
      kind: 'pass'
    })
  })

  it('skips a change on its own within them: it has no place to wait', async () => {
    const { quietHours, now } = await quietNow()
    const own = { settings: settingsOf({ quietHours }), now: () => now, what: 'this push' }
    expect(await ownGate.check(own)).toEqual({
      kind: 'skip',
      why: 'Quiet hours (saturday, sunday, 20:00–07:00 Europe/Berlin): nothing starts for this push, which runs on its own; a later push to it runs again.'
    })
  })
})
