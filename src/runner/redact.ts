/**
 * Secrets as they may come back from a server: as given, percent-encoded (echoed URLs and query
 * strings) and base64-encoded (echoed Basic credentials or debug dumps), each form at least 6
 * characters so that nothing ordinary is hidden by accident. `redact` also finds each form with any
 * of its bytes percent-encoded.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < 6) continue
    forms.add(secret)
    forms.add(encodeURIComponent(secret))
    const base64 = Buffer.from(secret).toString('base64')
    forms.add(base64)
    // Inside a longer base64 text the secret's own encoding loses its padding.
    forms.add(base64.replace(/=+$/, ''))
  }
  // Longest first, so a form never leaves the tail of a longer one behind.
  return [...forms].filter(f => f.length >= 6).sort((a, b) => b.length - a.length)
}

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
