import type { QuietHours } from '../../policy/policy.js'
import { counted } from '../../runner/text.js'
import { type Gate, PASS } from './gate.js'

/** What the quiet-hours gate reads: the policy's hours, the moment, and a tick that overrides them. */
export interface QuietInput {
  settings: { quietHours?: QuietHours }
  now: () => number
  /** A person ticked the batch's box (`approval: dashboard`): they asked for it now. */
  approved?: boolean
  /** What waits, as for the budget gate: the dashboard's batch, or a change on its own. */
  holds: { changes: number } | { onItsOwn: string }
}

/**
 * `quiet-hours`: in the hours a team keeps quiet (weekends, nights, in its own time zone), a change
 * run starts nothing: its batch waits on the dashboard and the first run after takes it. A tick on
 * the dashboard (approval) overrides them; a person's own request is never held.
 */
export const quietHoursGate: Gate<QuietInput> = {
  name: 'quiet-hours',
  says: 'it is not within `quiet-hours` (days, a daily window, in the policy’s time zone), or a person ticked the batch’s box; otherwise the changes wait on the dashboard for the first run after them (a change on its own is skipped)',
  check({ settings, now, approved, holds }) {
    const quiet = settings.quietHours
    if (!quiet || approved || !isQuiet(quiet, now())) return PASS
    const why = `Quiet hours (${quiet.text}):`
    if ('onItsOwn' in holds)
      return {
        kind: 'skip',
        why: `${why} nothing starts for ${holds.onItsOwn}, which runs on its own; a later push to it runs again.`
      }
    return {
      kind: 'hold',
      why: `${why} ${counted(holds.changes, 'change')} ${holds.changes === 1 ? 'waits' : 'wait'} on the dashboard; the first run after them takes ${holds.changes === 1 ? 'it' : 'them'} (the next merge, or a scheduled catch-up).`,
      written: {}
    }
  }
}

/** Whether `at` (epoch ms) falls within the quiet hours, read in their time zone. */
export function isQuiet(quiet: QuietHours, at: number): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: quiet.timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23'
  }).formatToParts(new Date(at))
  const part = (type: string): string => parts.find(p => p.type === type)?.value ?? ''
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(part('weekday'))
  if (quiet.days.includes(day)) return true
  const window = quiet.window
  if (!window) return false
  const minute = Number(part('hour')) * 60 + Number(part('minute'))
  return window.from <= window.to
    ? minute >= window.from && minute < window.to
    : minute >= window.from || minute < window.to
}
