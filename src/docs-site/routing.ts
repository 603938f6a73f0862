import ignore from 'ignore'

/**
 * Which site page a file of a Mintlify docs repository is, by Mintlify's routing rules: pages are
 * the `.md`/`.mdx` files under the docs root, served at their path there without the extension
 * (`guides/retry.mdx` → `/guides/retry`, an `index` → its folder's path, `/` at the root); snippets,
 * the files Mintlify ignores by default and those `.mintignore` excludes are no page. Pure logic over
 * paths, which may be hostile.
 */

/** The files whose folder is the docs site's root: `docs.json`, or the legacy `mint.json` without one. */
export const DOCS_CONFIGS = ['docs.json', 'mint.json'] as const

const PAGE = /\.mdx?$/i

/** A page path longer than this is no page anyone reads: hostile, or broken. */
const MAX_PATH = 1_000

/**
 * What Mintlify ignores with no `.mintignore`, as its documentation lists them ("Default ignored
 * patterns": `.git .github .claude .agents .idea .vscode node_modules build dist coverage .cache tmp
 * temp README.md LICENSE.md CHANGELOG.md CONTRIBUTING.md`), and `.mintlify/`, which it documents as
 * never served (where the agent's and the assistant's instructions live). Any other dot-folder
 * (`.changeset/`, `.cursor/`) is served like any folder, as documented. Folder names match at any
 * depth, file names too; both in any case.
 */
const IGNORED_FOLDERS = new Set([
  '.git',
  '.github',
  '.claude',
  '.agents',
  '.idea',
  '.vscode',
  '.cache',
  '.mintlify',
  'node_modules',
  'build',
  'dist',
  'coverage',
  'tmp',
  'temp'
])
/** Mintlify's snippets folder: only `/snippets/` at the docs root, as its documentation says. */
const SNIPPETS = 'snippets'
const IGNORED_FILES = new Set(['readme.md', 'license.md', 'changelog.md', 'contributing.md'])

/** Whether a path relative to the docs root is never a page whatever `.mintignore` says. */
export function ignoredByDefault(relative: string): boolean {
  const parts = relative.split('/')
  const name = (parts[parts.length - 1] ?? '').toLowerCase()
  if (IGNORED_FILES.has(name)) return true
  if (parts.length > 1 && parts[0]?.toLowerCase() === SNIPPETS) return true
  return parts.slice(0, -1).some(p => IGNORED_FOLDERS.has(p.toLowerCase()))
}

/** A `.mintignore`, compiled: gitignore syntax, the last matching line deciding. */
export type IgnoreRules = (relative: string) => boolean

/** Lines of a `.mintignore` read at most: it is the docs repository's text. */
const MAX_IGNORE_LINES = 500

/**
 * A `.mintignore`'s rules, read by `ignore` (the gitignore implementation ESLint and Prettier use):
 * comments, negations, folder-only and anchored patterns, and git's rule that a file inside an
 * excluded folder cannot be included again. A path `ignore` refuses (`..`, absolute) is ignored:
 * it is no page of the docs root.
 */
export function ignoreRules(text: string | undefined): IgnoreRules {
  const lines = (text ?? '').split(/\r?\n/).slice(0, MAX_IGNORE_LINES)
  const rules = ignore({ allowRelativePaths: false }).add(lines)
  return relative => {
    try {
      return rules.ignores(relative)
    } catch {
      return true
    }
  }
}

/** The path of `file` inside the docs root `root` (`''`: the repository's root), if it is inside. */
export function insideRoot(file: string, root: string): string | undefined {
  const prefix = root ? `${root}/` : ''
  return file.startsWith(prefix) ? file.slice(prefix.length) : undefined
}

/**
 * The site path Mintlify serves a docs file at, or undefined for a file that is no page: not
 * Markdown, outside the docs root, ignored by default or by `ignore`, or a path with empty,
 * `.` or `..` parts.
 */
export function sitePath(file: string, root: string, ignore?: IgnoreRules): string | undefined {
  const relative = insideRoot(file, root)
  if (relative === undefined || !PAGE.test(relative) || relative.length > MAX_PATH) return undefined
  if (ignoredByDefault(relative) || ignore?.(relative)) return undefined
  const parts = relative.replace(PAGE, '').split('/')
  if (parts.some(p => !p || p === '.' || p === '..')) return undefined
  if (parts[parts.length - 1]?.toLowerCase() === 'index') parts.pop()
  return `/${parts.join('/')}`
}

/** The same page however it is written: leading slash, no trailing one, any case. */
export const samePage = (path: string): string =>
  `/${path.trim().replace(/^\/+|\/+$/g, '')}`.toLowerCase()

/** The configuration file a folder holds: `docs.json`, or a legacy `mint.json` without one. */
export type DocsConfig = (typeof DOCS_CONFIGS)[number]

/**
 * The folders holding a `docs.json` or a legacy `mint.json` (`''`: the repository's root), outside
 * folders Mintlify ignores, with the file each holds: within one folder `docs.json` wins.
 */
export function configFolders(files: readonly string[]): Map<string, DocsConfig> {
  const configs = new Map<string, DocsConfig>()
  for (const config of [...DOCS_CONFIGS].reverse())
    for (const f of files)
      if (f === config || f.endsWith(`/${config}`)) {
        const root = f.slice(0, -config.length).replace(/\/$/, '')
        // docs.json, set last, wins within its folder.
        if (!root || !ignoredByDefault(`${root}/x`)) configs.set(root, config)
      }
  return configs
}

/** A file of the docs root `root`: `at('', 'docs.json')` is `docs.json`. */
export const at = (root: string, name: string): string => (root ? `${root}/${name}` : name)
