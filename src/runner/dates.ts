import { InputError } from './errors.js'
import { DAY_MS } from './duration.js'

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i
const RELATIVE = /^-(\d{1,4})d$/i

/** A date input as sent to the service, and the instant it stands for (to compare the two ends). */
export interface DateValue {
  text: string
  at: number
}

const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

function validDay(year: string, month: string, day: string): boolean {
  const at = Date.UTC(Number(year), Number(month) - 1, Number(day))
  return ymd(at) === `${year}-${month}-${day}`
}

/**
 * `YYYY-MM-DD` and ISO 8601 date-times are sent as given; `today`, `yesterday` and `-7d` (days before
 * today) are resolved in UTC against `now` to `YYYY-MM-DD`.
 */
export function parseDateInput(name: string, raw: string, now: number): DateValue | undefined {
  const text = raw.trim()
  if (text === '') return undefined
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const lower = text.toLowerCase()
  if (lower === 'today') return { text: ymd(today), at: today }
  if (lower === 'yesterday') return { text: ymd(today - DAY_MS), at: today - DAY_MS }
  const relative = RELATIVE.exec(text)
  if (relative) {
    const at = today - Number(relative[1]) * DAY_MS
    return { text: ymd(at), at }
  }
  const plain = PLAIN_DATE.exec(text)
  if (plain && validDay(plain[1] as string, plain[2] as string, plain[3] as string)) {
    return { text, at: Date.parse(`${text}T00:00:00Z`) }
  }
  const full = ISO_DATE_TIME.exec(text)
  if (
    full &&
    validDay(full[1] as string, full[2] as string, full[3] as string) &&
    !Number.isNaN(Date.parse(text))
  ) {
    return { text, at: Date.parse(text) }
  }
  throw new InputError(
    `Input '${name}' must be a date: YYYY-MM-DD, an ISO 8601 date-time (2026-01-31T00:00:00Z), today, yesterday, or -7d (days before today, UTC); got '${raw}'.`
  )
}

/** A validated range: both ends optional; `to` is exclusive, as the service counts days before it. */
export interface DateRange {
  from?: DateValue
  to?: DateValue
}

/** Reads both ends of a range and checks that the start comes first. */
export function readDateRange(
  fromName: string,
  toName: string,
  get: (name: string) => string,
  now: number
): DateRange {
  const from = parseDateInput(fromName, get(fromName), now)
  const to = parseDateInput(toName, get(toName), now)
  if (from && to && from.at >= to.at) {
    throw new InputError(
      `Input '${fromName}' (${from.text}) must be before '${toName}' (${to.text}); '${toName}' is exclusive, so for a single day use the next day as '${toName}'.`
    )
  }
  return { from, to }
}

/** A date range as the summaries say it: the end is exclusive, either end may be open. */
export function rangeText(from?: string | null, to?: string | null): string {
  if (from && to) return `${from} to ${to} (exclusive)`
  if (from) return `from ${from}`
  if (to) return `before ${to}`
  return 'all dates'
}
