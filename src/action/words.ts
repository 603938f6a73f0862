/** A count as people read it: 1,234. */
export const formatCount = (n: number): string => n.toLocaleString('en-US')

/** `word` for one, its plural for any other count: "1 request", "0 requests". */
export const plural = (n: number, word: string, many = `${word}s`): string =>
  n === 1 ? word : many

/** A count and its noun, agreeing: "1 request", "1,250 requests", "1 entry" with many = "entries". */
export const counted = (n: number, word: string, many?: string): string =>
  `${formatCount(n)} ${plural(n, word, many)}`
