import { expect } from 'vitest'
import type { RunResult } from './run-action.js'

/** Everything a user could see: the log (less the runner's own mask commands), outputs and summary. */
export function visible(result: RunResult): string {
  return [
    result.log.replace(/^::add-mask::.*$/gm, ''),
    JSON.stringify(result.outputs),
    result.summary
  ].join('\n')
}

/** Failed with this one-line error, no stack trace, and none of the secrets shown. */
export function expectCleanFailure(result: RunResult, message: RegExp, secrets: string[]): void {
  expect(result.code).toBe(1)
  expect(result.log).toMatch(new RegExp(`::error::${message.source}`))
  expect(result.log).not.toMatch(/\n\s+at .+:\d+:\d+/)
  for (const secret of secrets) expect(visible(result)).not.toContain(secret)
}

/**
 * `text` with the escapes a writer may put inside a secret undone: JSON's `\uXXXX` and backslashes
 * (JSON and Markdown), the zero-width spaces that defuse mentions and links, percent-encoding.
 */
function unescaped(text: string): string {
  const byCode = (hex: string): string => String.fromCharCode(parseInt(hex, 16))
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => byCode(hex))
    .replace(/\\(.)/g, '$1')
    .replace(/\u200B/g, '')
    .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => byCode(hex))
}

/** None of the secrets in `text`, as written or behind any escape (see `unescaped`). */
export function expectNoSecret(place: string, text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    expect(text, `${place} shows a secret`).not.toContain(secret)
    expect(unescaped(text), `${place} shows a secret behind escapes`).not.toContain(secret)
  }
}
