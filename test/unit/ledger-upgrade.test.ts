import { describe, expect, it } from 'vitest'
import {
  LEDGER_FORMAT,
  type Ledger,
  dashboardPlace,
  ledgerRecord,
  readDashboardState
} from '../../src/records/ledger.js'
import { encodeStarts } from '../../src/records/ledger/starts.js'
import { RecordSigner } from '../../src/records/record.js'
import { ledgerFixture, stateIn } from '../support/ledger-states.js'

/**
 * Dashboards written in format 1 by the action's own code of the time, run in-process against the
 * fake GitHub and the API simulator (each fixture's `about` says how): the first ledger merged into
 * main (a21b46a, 2026-11-24: a state not yet bound to its issue) and main before format 2 (fb8feff),
 * in one repository and in a docs project. Each keeps the ledger that code read from it. (The
 * release v1.0.0, 2026-11-22, wrote no dashboard: the ledger came after it.)
 */
const FIXTURES = [
  'v1-a21b46a-repository.json',
  'v1-fb8feff-repository.json',
  'v1-fb8feff-docs-project.json'
]
type RawProject = Record<string, unknown>

describe.each(FIXTURES)('a dashboard written in format 1: %s', name => {
  const fixture = ledgerFixture(name)
  const signer = new RecordSigner(fixture.apiKey)
  const raw = stateIn(fixture.body)
  const rawProjects = raw.projects as Record<string, RawProject>
  const read = readDashboardState(fixture.body, signer, fixture.repository, fixture.issue)
  if (!read.ok) throw new Error(`${name}: ${read.why}`)
  const { ledger } = read
  // Written again a minute after its last write: nothing in it is old enough to leave.
  const times = Object.values(rawProjects).flatMap(p => (p.runs as { at: number }[]).map(r => r.at))
  const now = Math.max((raw.writtenAt as number | undefined) ?? 0, ...times) + 60_000

  it('holds format 1 with jobs, waiting changes, starts and runs', () => {
    expect(raw.v).toBe(1)
    const all = Object.values(rawProjects)
    expect(all.flatMap(p => p.jobs as unknown[]).length).toBeGreaterThan(0)
    expect(all.some(p => p.waiting)).toBe(true)
    expect(all.flatMap(p => p.spend as unknown[]).length).toBeGreaterThan(0)
    expect(all.flatMap(p => p.runs as unknown[]).length).toBeGreaterThan(0)
  })

  it('reads as the code that wrote it read it, bound to its issue or as a state from before', () => {
    expect(read.legacy).toBe(raw.issue === undefined)
    expect(ledger).toEqual({ ...fixture.readByItsCode, v: LEDGER_FORMAT })
  })

  it('loses nothing the state held: each field of each project, as written', () => {
    for (const key of Object.keys(raw).filter(k => k !== 'v' && k !== 'projects'))
      expect(ledger[key as keyof Ledger], key).toEqual(raw[key])
    expect(Object.keys(ledger.projects)).toEqual(Object.keys(rawProjects))
    for (const [id, project] of Object.entries(rawProjects))
      for (const [key, value] of Object.entries(project))
        expect(
          ledger.projects[id]?.[key as keyof Ledger['projects'][string]],
          `${id}.${key}`
        ).toEqual(value)
  })

  it('is written again in format 2: the same state, its starts in the compact form', () => {
    const place = dashboardPlace(fixture.repository, ledger.issue)
    const body = ledgerRecord(ledger, signer, place, now)
    const written = stateIn(body)
    expect(written).toEqual({
      ...raw,
      v: LEDGER_FORMAT,
      projects: Object.fromEntries(
        Object.entries(rawProjects).map(([id, p]) => [
          id,
          { ...p, spend: encodeStarts(p.spend as number[]) }
        ])
      )
    })
    const again = readDashboardState(body, signer, fixture.repository, fixture.issue)
    expect(again).toEqual({ ok: true, ledger, legacy: read.legacy })
  })
})
