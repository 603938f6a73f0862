/**
 * Characters a reader does not see but a model reads: C0/C1 controls except tab and newline,
 * the soft hyphen and other fillers, zero-width and bidirectional controls, variation selectors,
 * the BOM, and Unicode tag characters (which can spell out hidden ASCII).
 */
/* eslint-disable no-control-regex, no-misleading-character-class -- matching these characters is the point */
const INVISIBLE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu
/* eslint-enable no-control-regex, no-misleading-character-class */

/**
 * Text typed by someone outside the team, with what a reader of the rendered page would not see
 * taken out: HTML comments (an unterminated one runs to the end) and invisible or control
 * characters. Line ends become `\n`.
 */
export function stripHidden(text: string): string {
  // Invisible characters first: one inside `<!--` must not hide the comment from the next step.
  return stripInvisible(text).replace(/<!--[\s\S]*?(-->|$)/g, '')
}

/** Invisible and control characters out, line ends as `\n`; HTML comments left (code, diffs). */
export function stripInvisible(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE, '')
}

/**
 * Text from an issue, a pull request or a commit, for a prompt: what readers cannot see taken out
 * (stripHidden), runs of blank lines squeezed, and at most `max` characters.
 */
export function cleanUntrusted(text: string, max: number): string {
  const cleaned = stripHidden(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return cleaned.length > max ? `${cleaned.slice(0, max)}\n[… cut at ${max} characters]` : cleaned
}

/** Dash punctuation, the minus sign and the characters that draw a horizontal line. */
const DASH = '[\\p{Pd}\\u2212\\u23AF\\u2500\\u2501\\u2796]'
/** Five or more dashes in a row, spaces between them allowed: what a delimiter is drawn with. */
const DASH_RUN = new RegExp(`${DASH}(?:[ \\t\\u00A0\\u3000]*${DASH}){4,}`, 'gu')
const ANY_DASH = new RegExp(DASH, 'gu')
/** Read loosely (NFKC, every dash a hyphen): a line that starts with BEGIN or END (three dashes in it make it a marker). */
const MARKER_LIKE = /^[\s>*_#|+-]*(begin|end)\b/i

/**
 * Untrusted text that sits between a prompt's delimiters cannot draw a line that looks like one:
 * a prompt's markers are `----- BEGIN … -----` and `----- END … -----`. Every run of five or more
 * dashes (any dash character, spaces between allowed) becomes `----`, and a line that reads as a
 * marker in any spacing, case or width (`-----end issue text-----`, `－－－ ＥＮＤ …`,
 * `END ISSUE TEXT ----`) is rewritten as `[delimiter-like line: END ISSUE TEXT]`.
 */
export function neutraliseDelimiters(text: string): string {
  return text
    .split('\n')
    .map(line => {
      const loose = line.normalize('NFKC').replace(ANY_DASH, '-')
      if (!MARKER_LIKE.test(loose) || !/-(\s*-){2,}/.test(loose))
        return line.replace(DASH_RUN, '----')
      const words = loose
        .replace(/-(\s*-)+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
      return `[delimiter-like line: ${words}]`
    })
    .join('\n')
}
