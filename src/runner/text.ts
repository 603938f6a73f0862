/** Prompts are capped in UTF-8 bytes, the size the service receives. */
export const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

/** The longest start of `text` within `max` UTF-8 bytes, never splitting a character. */
export function capBytes(text: string, max: number): string {
  if (bytes(text) <= max) return text
  const cut = Buffer.from(text, 'utf8').subarray(0, max).toString('utf8')
  // A character cut in two decodes to U+FFFD at the end: drop it.
  return cut.replace(/\uFFFD$/, '')
}

/** A count as people read it: 1,234. */
export const formatCount = (n: number): string => n.toLocaleString('en-US')

/** `word` for one, its plural for any other count: "1 request", "0 requests". */
export const plural = (n: number, word: string, many = `${word}s`): string =>
  n === 1 ? word : many

/** A count and its noun, agreeing: "1 request", "1,250 requests", "1 entry" with many = "entries". */
export const counted = (n: number, word: string, many?: string): string =>
  `${formatCount(n)} ${plural(n, word, many)}`

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st… */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th')
  return `${formatCount(n)}${suffix}`
}
