import { stripHidden } from '../runner/untrusted.js'

/**
 * Search terms, comments, questions and the page paths they came with were typed (or sent) by members
 * of the public. They are cleaned once, as they are read, and only the cleaned text is kept:
 *
 * - hidden HTML comments and invisible or control characters removed;
 * - e-mail addresses removed, also when spelled with entities, percent-escapes, full-width signs,
 *   ideographic full stops or zero-width characters between the letters;
 * - `@mentions` and links defused (`@ name`, `https[:]//…`, `[text] (url)`), so no rendering of the
 *   text pings anyone or links anywhere, and fence-like runs of `-`, `=`, `#`, `` ` `` and `~` shortened, so the text
 *   cannot imitate the prompt's own markers;
 * - one line, capped in length.
 */

const EMAIL_REMOVED = '[e-mail removed]'

const ENTITY_AT = /&(?:#0*64|#x0*40|commat);?/gi
const ENTITY_DOT = /&(?:#0*46|#x0*2e|period);?/gi
const PERCENT_AT = /%40/gi
/**
 * What readers type for `.` and `@` in an address: ideographic full stops (。, halfwidth ｡, the
 * vertical ︒), which NFKC keeps as they are, besides the full-width and small forms it turns into
 * `.` and `@` (listed too, for text that was not normalised).
 */
const DOT = '[.\\u3002\\uFF0E\\uFF61\\uFE12\\uFE52]'
const AT = '[@\\uFF20\\uFE6B]'
/**
 * local@domain.tld, the top-level domain starting with a letter (so `pkg@1.2.30` stays), the local part
 * without the characters that end a path or query (`/`, `?`, `=`, `&`, `#`), so only the address goes.
 */
const EMAIL = new RegExp(
  `(?:[\\p{L}\\p{N}_%+\\-!$'*^\`{|}~]|${DOT})+${AT}(?:[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?${DOT})+\\p{L}[\\p{L}\\p{N}-]+`,
  'gu'
)
const MENTION = /@(?=[\p{L}\p{N}_-])/gu
const SCHEME = /\b([a-z][a-z0-9+.-]*):\/\//gi
const FENCE = /([-=#`~_*])\1{2,}/g

/** Cuts at `max` characters (code points, so no pair is split), marking the cut. */
function capChars(text: string, max: number): string {
  const chars = Array.from(text)
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text
}

/** Removes e-mail addresses from any text. */
export function removeEmails(text: string): string {
  return text
    .replace(ENTITY_AT, '@')
    .replace(ENTITY_DOT, '.')
    .replace(PERCENT_AT, '@')
    .replace(EMAIL, EMAIL_REMOVED)
}

/** Reader text as it may be written anywhere: see the module comment. */
export function cleanReaderText(raw: string, max: number): string {
  const visible = stripHidden(raw).normalize('NFKC')
  // NFKC turns full-width and small `@` into `@`; strip again anything it may have produced.
  const text = removeEmails(stripHidden(visible))
    .replace(MENTION, '@ ')
    .replace(SCHEME, '$1[:]//')
    .replace(/\]\s*\(/g, '] (')
    .replace(FENCE, '$1$1')
    .replace(/\s+/g, ' ')
    .trim()
  return capChars(text, max)
}

/** Questions and terms compared the way a person would: case, spacing and end punctuation aside. */
export function groupKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s?!.,;:]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * A page path from a URL or a path a reader's browser sent: the path alone (no host, query or
 * fragment), cleaned like any reader text.
 */
export function pagePath(raw: string, max = 200): string {
  let text = raw.trim()
  try {
    const url = new URL(text)
    if (url.protocol === 'http:' || url.protocol === 'https:') text = url.pathname
  } catch {
    text = text.replace(/[?#].*$/s, '')
  }
  try {
    text = decodeURIComponent(text)
  } catch {
    // Not valid percent-encoding: keep it as it came.
  }
  const path = cleanReaderText(text, max).replace(/(.)\/+$/, '$1')
  return path || '/'
}
