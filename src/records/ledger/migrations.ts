import { LEDGER_FORMAT, isRecord } from './format.js'
import { DAY_KEY, MAX_STARTS, encodeStarts, utcDay } from './starts.js'
import { DAY_MS } from '../../runner/duration.js'

/**
 * The migrations of the ledger's format: each brings the parsed JSON of one format to the next,
 * unchecked and without trusting it (the schema of format.ts checks the result), and changes
 * nothing else. A state of format N goes through MIGRATIONS[N - 1], MIGRATIONS[N], … up to
 * LEDGER_FORMAT; a test holds that there is one for every step.
 */
export type Migration = (state: Record<string, unknown>) => Record<string, unknown>

/** How long format 1 kept each start (`spend`): a week, the longest window of `max-jobs` then. */
const V1_STARTS_KEPT_MS = 7 * DAY_MS

/**
 * 1 → 2: the starts kept for the budgets (`spend`) go from a list of epoch milliseconds, the last
 * 7 days, to a compact string of the last 31 days (starts.ts), for budgets over a month.
 *
 * Format 1 knows its starts older than a week only as counts per day (`startsByDay`): each is
 * counted as started at the latest time it can have, the end of its day, and never after the
 * oldest start kept or the week before the state was written (what format 1 dropped was older).
 * A budget over a month then holds them no shorter than the real starts would, and nothing that
 * started within the week is counted twice.
 */
function startsOfAMonth(state: Record<string, unknown>): Record<string, unknown> {
  const projects = isRecord(state.projects) ? state.projects : {}
  const writtenAt = typeof state.writtenAt === 'number' ? state.writtenAt : undefined
  return {
    ...state,
    v: 2,
    projects: Object.fromEntries(
      Object.entries(projects).map(([id, project]) => [
        id,
        isRecord(project)
          ? { ...project, spend: encodeStarts(v1Starts(project, writtenAt)) }
          : project
      ])
    )
  }
}

/** A format-1 project's starts: those it kept, and those it counted by day only. */
function v1Starts(project: Record<string, unknown>, writtenAt: number | undefined): number[] {
  const kept = (Array.isArray(project.spend) ? project.spend : [])
    .filter((at): at is number => typeof at === 'number' && Number.isFinite(at) && at >= 0)
    .map(Math.floor)
  const days = isRecord(project.startsByDay) ? project.startsByDay : {}
  const latest = kept.reduce(
    (oldest, at) => Math.min(oldest, at),
    writtenAt === undefined ? Infinity : writtenAt - V1_STARTS_KEPT_MS
  )
  const earlier: number[] = []
  for (const [day, n] of Object.entries(days)) {
    const start = Date.parse(`${day}T00:00:00Z`)
    if (!DAY_KEY.test(day) || !Number.isFinite(start) || utcDay(start) !== day) continue
    if (!Number.isSafeInteger(n)) continue
    const known = kept.filter(at => utcDay(at) === day).length
    const missing = Math.min((n as number) - known, MAX_STARTS)
    const at = Math.max(start, Math.min(start + DAY_MS - 1, latest))
    for (let i = 0; i < missing; i++) earlier.push(at)
  }
  return [...earlier, ...kept]
}

/** MIGRATIONS[N - 1] brings format N to N + 1. */
export const MIGRATIONS: readonly Migration[] = [startsOfAMonth]

/** A state of format `from` (1 to LEDGER_FORMAT) brought to LEDGER_FORMAT, still unchecked. */
export function upgraded(state: Record<string, unknown>, from: number): Record<string, unknown> {
  let current = state
  for (let format = from; format < LEDGER_FORMAT; format++) {
    const migrate = MIGRATIONS[format - 1]
    if (!migrate) throw new Error(`no migration from format ${format}`)
    current = migrate(current)
  }
  return current
}
