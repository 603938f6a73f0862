import { escapeMarkdown } from './markdown.js'

/**
 * Secrets as they may come back from a server or be written by this action: as given,
 * percent-encoded (echoed URLs and query strings) and base64-encoded (echoed Basic credentials or
 * debug dumps), and each of those as a Markdown text, table cell or JSON string escapes it (`mint\_…`,
 * which the runner's masking of the plain secret does not match). Each form is at least 6
 * characters so that nothing ordinary is hidden by accident. `redact` also finds each form with any
 * of its bytes percent-encoded.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const plain = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < 6) continue
    plain.add(secret)
    plain.add(encodeURIComponent(secret))
    const base64 = Buffer.from(secret).toString('base64')
    plain.add(base64)
    // Inside a longer base64 text the secret's own encoding loses its padding.
    plain.add(base64.replace(/=+$/, ''))
  }
  const forms = new Set<string>()
  for (const form of plain) for (const escaped of escapedForms(form)) forms.add(escaped)
  // Longest first, so a form never leaves the tail of a longer one behind.
  return [...forms].filter(f => f.length >= 6).sort((a, b) => b.length - a.length)
}

/** A text as it is, and as the writers of Markdown, table cells and JSON strings escape it. */
const escapedForms = (form: string): string[] => [
  form,
  escapeMarkdown(form),
  form.replace(/\|/g, '\\|'),
  JSON.stringify(form).slice(1, -1)
]

/** `text` with every form of every secret replaced by `***`. */
export function redact(text: string, forms: readonly string[]): string {
  let out = text
  // Most texts hold no secret: look before splitting, so a long export allocates nothing for them.
  for (const form of forms) if (out.includes(form)) out = out.split(form).join('***')
  // A form may also come back with any of its bytes percent-encoded, in either case of hex, mixed
  // with plain characters: an echoed URL, or a host the URL parser would decode.
  if (out.includes('%'))
    for (const pattern of percentPatterns(forms)) out = out.replace(pattern, '***')
  return out
}

const patternsOf = new WeakMap<readonly string[], RegExp[]>()

/** For each form, a pattern matching it with any of its characters percent-encoded (built once per list). */
function percentPatterns(forms: readonly string[]): RegExp[] {
  let patterns = patternsOf.get(forms)
  if (!patterns) {
    patterns = forms.filter(form => !form.includes('%')).map(percentPattern)
    patternsOf.set(forms, patterns)
  }
  return patterns
}

function percentPattern(form: string): RegExp {
  const hexDigit = (d: string): string => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)
  const characters = Array.from(form, ch => {
    const escaped = [...Buffer.from(ch, 'utf8')]
      .map(byte => `%${[...byte.toString(16).padStart(2, '0')].map(hexDigit).join('')}`)
      .join('')
    return `(?:${ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}|${escaped})`
  })
  return new RegExp(characters.join(''), 'g')
}

/**
 * `text` parsed as JSON, with every string redacted, keys included. Most answers hold no secret: when
 * the text has no escape (so every string in it, keys included, is written out as it reads) and no
 * form of a secret, nothing in it can need redacting, and it is not copied.
 */
export function redactedJson(text: string, forms: readonly string[]): unknown {
  const value: unknown = JSON.parse(text)
  if (!text.includes('\\') && redact(text, forms) === text) return value
  return redactDeep(value, forms)
}

/** A parsed JSON value with every string redacted, keys included. */
export function redactDeep(value: unknown, forms: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, forms)
  if (Array.isArray(value)) return value.map(v => redactDeep(v, forms))
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redact(k, forms), redactDeep(v, forms)])
    )
  }
  return value
}

/**
 * One run's redaction, for everything it writes: its secrets' forms are worked out once, for single
 * texts (outputs, summaries, files) and for whole values read from elsewhere (a report, before it is
 * rendered, so no rendering, escaping or truncation can show a secret or part of one).
 */
export class Redactor {
  private readonly forms: readonly string[]

  constructor(secrets: readonly (string | undefined)[]) {
    this.forms = secretForms(secrets.filter((s): s is string => Boolean(s)))
  }

  readonly text = (text: string): string => redact(text, this.forms)

  /** A copy of a JSON-like value (plain objects, arrays, strings, numbers) with every string redacted. */
  value<T>(value: T): T {
    return redactDeep(value, this.forms) as T
  }
}
