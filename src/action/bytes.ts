/** Prompts are capped in UTF-8 bytes, the size the service receives. */
export const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

/** The longest start of `text` within `max` UTF-8 bytes, never splitting a character. */
export function capBytes(text: string, max: number): string {
  if (bytes(text) <= max) return text
  const cut = Buffer.from(text, 'utf8').subarray(0, max).toString('utf8')
  // A character cut in two decodes to U+FFFD at the end: drop it.
  return cut.replace(/\uFFFD$/, '')
}
