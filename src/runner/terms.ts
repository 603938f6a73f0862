/**
 * The distinctive terms of a text: what names something in a product (a flag, an identifier, a
 * config key, an endpoint, a code span) rather than ordinary words, so that two texts can be said to
 * be about the same thing ("watch" alone says little, `--watch` says which). Pure functions over
 * capped text, which may be hostile.
 */

/** Terms kept per text, and their length: the text may be hostile and the matching is per term. */
const MAX_TERMS = 8
const MIN_TERM = 3
const MAX_TERM = 80
/** Text looked at, per call. */
const MAX_TEXT = 500

/**
 * Words that look like identifiers but are everyday writing (`e.g.`, `sign-in`, `i.e.`) or too
 * generic to say which thing a text is about (`api`, `docs`, `index`): never a term on their own.
 */
const STOP = new Set(
  [
    'e.g',
    'i.e',
    'etc',
    'vs',
    'api',
    'apis',
    'docs',
    'doc',
    'index',
    'readme',
    'readme.md',
    'node.js',
    'next.js',
    'vue.js',
    'sign-in',
    'sign-up',
    'log-in',
    'e-mail',
    'built-in',
    'how-to',
    'set-up',
    'follow-up',
    'opt-in',
    'opt-out',
    'real-time',
    'step-by-step',
    'up-to-date',
    'third-party',
    'well-known',
    'open-source',
    'self-host',
    'self-hosted',
    'two-factor',
    'multi-factor',
    'end-to-end',
    'on-prem',
    'on-premise',
    'read-only',
    'client-side',
    'server-side',
    'non-profit',
    'true',
    'false',
    'null',
    'undefined',
    'string',
    'number',
    'boolean',
    'object',
    'error',
    'config',
    'setup',
    'install',
    'http',
    'https',
    'json',
    'yaml',
    'html'
  ].map(w => w.toLowerCase())
)

const PATTERNS: RegExp[] = [
  // Code spans: `anything short`.
  /`([^`\n]{3,80})`/g,
  // Flags: --watch, --dry-run.
  /(?<![\w-])(--[A-Za-z][\w-]*[A-Za-z0-9])/g,
  // Endpoints and paths: /v1/users, /api/keys/{id}.
  /(?<![\w/])(\/[A-Za-z0-9_{}:.-]+(?:\/[A-Za-z0-9_{}:.-]+)+)/g,
  // dotted.config.keys (a letter after each dot; no version numbers).
  /(?<![\w.])([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+)(?![\w]|\.\w)/g,
  // snake_case and CONSTANT_CASE.
  /(?<![\w.])([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)(?![\w]|\.\w)/g,
  // camelCase and PascalCase with an inner capital: apiKey, getUser, MaxRetries.
  /(?<![\w.])([a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(?![\w]|\.\w)/g,
  // kebab-case keys of two or more parts: max-requests, follow-symlinks.
  /(?<![\w./-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w-]|[./]\w)/g
]

/** The distinctive terms in a text, in the order found, without repeats (case aside). */
export function distinctiveTerms(raw: string): string[] {
  const text = raw.slice(0, MAX_TEXT)
  const terms: string[] = []
  const seen = new Set<string>()
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const term = (match[1] ?? '').trim().replace(/[.,;:!?]+$/, '')
      const key = term.toLowerCase()
      if (term.length < MIN_TERM || term.length > MAX_TERM || seen.has(key)) continue
      if (!isDistinctive(term)) continue
      seen.add(key)
      terms.push(term)
      if (terms.length >= MAX_TERMS) return terms
    }
  }
  return terms
}

/** A term that names something: not a stop word, and with some shape beyond plain letters. */
function isDistinctive(term: string): boolean {
  if (STOP.has(term.toLowerCase())) return false
  // Plain words, in a code span or in capitals ("watch mode", `watch`, SSO), say no more than words.
  if (/^[A-Za-z ]+$/.test(term) && !/[a-z][A-Z]/.test(term)) return false
  return /[A-Za-z]/.test(term)
}

/**
 * A site page's terms: its path, as a site path (`/cli/commands`) and as a file path would hold it
 * (`cli/commands`), and its slug (`commands`), which only file names match.
 */
export function pageTerms(path: string): { paths: string[]; slug: string | null } {
  const clean = path.replace(/[?#].*$/s, '').replace(/\/+$/, '')
  const inner = clean.replace(/^\/+/, '')
  if (!inner || inner.length > MAX_TERM) return { paths: [], slug: null }
  const slug = inner.split('/').pop() ?? ''
  return {
    paths: [`/${inner}`, ...(inner.includes('/') ? [inner] : [])],
    slug: slug.length >= MIN_TERM && !STOP.has(slug.toLowerCase()) ? slug : null
  }
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/**
 * Whether `text` names `term` as a whole: case aside, not inside a longer name (`--watch` is not in
 * `--watch-all`, `apiKey` is not in `apiKeys`), though a sentence's full stop may follow it.
 */
export function mentions(text: string, term: string): boolean {
  const pattern = new RegExp(
    `(?<![A-Za-z0-9_-])${escapeRegExp(term)}(?![A-Za-z0-9_]|[-./][A-Za-z0-9_])`,
    'i'
  )
  return pattern.test(text)
}

/** Whether one of `files` is the page's source: its path without extension ends in the page path or slug. */
export function namesPageFile(
  files: readonly string[],
  page: ReturnType<typeof pageTerms>
): boolean {
  return files.some(file => {
    const stem = file.toLowerCase().replace(/\.[a-z0-9]+$/, '')
    if (page.paths.some(p => `/${stem}`.endsWith(`/${p.toLowerCase().replace(/^\/+/, '')}`)))
      return true
    return page.slug !== null && stem.split('/').pop() === page.slug.toLowerCase()
  })
}
