import { InputError } from './errors.js'

/** An input as the workflow gave it, untrimmed (so a prompt of only spaces is told apart from none). */
export type InputReader = (name: string) => string
/** Hides a secret in the log from now on. */
export type Masker = (secret: string) => void

/**
 * A reader that falls back to `defaults` (action.yml's, repeated because a bare `node dist/…`
 * gets none from the runner) when an input is empty; trimmed.
 */
export function withDefaults<D extends Record<string, string>>(
  get: InputReader,
  defaults: D
): (name: keyof D & string) => string {
  return name => get(name).trim() || (defaults[name] as string)
}

export function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase()
  if (value === 'true') return true
  if (value === 'false') return false
  throw new InputError(`Input '${name}' must be 'true' or 'false'; got '${raw}'.`)
}

export function parseInteger(name: string, raw: string, min: number, max: number): number {
  const value = raw.trim()
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new InputError(
      `Input '${name}' must be a whole number from ${min} to ${max}; got '${raw}'.`
    )
  }
  return Number(value)
}

export function parseChoice<T extends string>(name: string, raw: string, choices: readonly T[]): T {
  const value = raw.trim().toLowerCase()
  if (!(choices as readonly string[]).includes(value)) {
    throw new InputError(`Input '${name}' must be one of ${choices.join(', ')}; got '${raw}'.`)
  }
  return value as T
}

/** `${{ … }}` as written: an expression nothing expanded, not a value. */
const UNEXPANDED = /^\$\{\{.*\}\}$/s

export const isUnexpanded = (value: string): boolean => UNEXPANDED.test(value)

/**
 * A key or token: masked before anything else can print it, and only visible ASCII, because it goes
 * into an HTTP header. A zero-width space, a curly quote or a line break pasted with the secret
 * would otherwise fail every request, retried until the time-out. No message shows the value.
 *
 * One exception, for every secret input: the text of a `${{ … }}` expression that nothing expanded
 * (@github/local-action passes action.yml's defaults as written, `github-token`'s among them) is
 * no secret and no value. It is returned as it is, unmasked, and refused only where the secret is
 * about to be sent (`sendableSecret`), so a run that never needs it is not failed by it.
 */
export function readSecret(get: InputReader, mask: Masker, name: string): string {
  const secret = get(name).trim()
  if (!secret) return ''
  if (isUnexpanded(secret)) return secret
  mask(secret)
  const bad = [...secret].findIndex(c => c < '!' || c > '~')
  if (bad >= 0) {
    const code = (secret.codePointAt(bad) as number).toString(16).toUpperCase().padStart(4, '0')
    throw new InputError(
      `Input '${name}' holds a character that cannot be sent in an HTTP header (U+${code} at position ${bad + 1}): copy the secret again, without spaces, line breaks or typographic quotes.`
    )
  }
  return secret
}

/**
 * A secret read by readSecret, now needed: an unexpanded `${{ … }}` expression fails here, saying so
 * and how to give the value.
 */
export function sendableSecret(name: string, secret: string): string {
  if (!isUnexpanded(secret)) return secret
  throw new InputError(
    `Input '${name}' is the text of a \${{ … }} expression, not its value: nothing expanded it (@github/local-action passes action.yml's defaults and its env file's values as written). Give the value itself, e.g. INPUT_${name.toUpperCase()}=… in local-action's env file${name.endsWith('token') ? ' (a token from `gh auth token` will do)' : ''}.`
  )
}
