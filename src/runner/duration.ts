import { InputError } from './errors.js'

/** Units of time in milliseconds: defined here once, for every part of the action. */
export const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: MINUTE_MS,
  h: HOUR_MS,
  d: DAY_MS,
  w: 7 * DAY_MS
}
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s|d|w)/y

/** A number without a unit: `45` next to `timeout-minutes: 45` reads as minutes to a person. */
const BARE_NUMBER = /^\d+(\.\d+)?$/

/**
 * Parses `90s`, `15m`, `1h`, `1h30m`, `14d`, `2w` or `500ms` into milliseconds. Every part has its unit: a bare
 * number is refused, since nobody can tell whether `45` meant seconds or minutes. Returns undefined
 * for anything else so the caller can name the input in its message.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase()
  if (value === '' || BARE_NUMBER.test(value)) return undefined
  let total = 0
  PART.lastIndex = 0
  let matched = 0
  while (PART.lastIndex < value.length) {
    const start = PART.lastIndex
    const m = PART.exec(value)
    if (!m || m.index !== start) return undefined
    total += Number(m[1]) * (UNIT_MS[m[2] as string] as number)
    matched++
  }
  return matched > 0 ? Math.round(total) : undefined
}

/** Parses a duration input and checks its range, with a message that names the input. */
export function durationInput(name: string, raw: string, minMs: number, maxMs: number): number {
  const ms = parseDuration(raw)
  const bare = raw.trim()
  if (BARE_NUMBER.test(bare)) {
    throw new InputError(
      `Input '${name}' needs a unit: write '${bare}m' for ${bare} minutes or '${bare}s' for ${bare} seconds; got '${raw}'.`
    )
  }
  if (ms === undefined) {
    throw new InputError(
      `Input '${name}' must be a duration such as 90s, 15m, 1h or 1h30m; got '${raw}'.`
    )
  }
  if (ms < minMs || ms > maxMs) {
    throw new InputError(
      `Input '${name}' must be between ${formatDuration(minMs)} and ${formatDuration(maxMs)}; got '${raw}'.`
    )
  }
  return ms
}

/** `1h 2m 3s`, `45s`, `1.5s`: short and human, for logs and summaries. */
export function formatDuration(ms: number): string {
  if (ms < 10_000 && ms % 1000 !== 0) return `${Math.round(ms / 100) / 10}s`
  let s = Math.round(ms / 1000)
  const h = Math.floor(s / 3600)
  s -= h * 3600
  const m = Math.floor(s / 60)
  s -= m * 60
  const parts: string[] = []
  if (h) parts.push(`${h}h`)
  if (m) parts.push(`${m}m`)
  if (s || parts.length === 0) parts.push(`${s}s`)
  return parts.join(' ')
}
