import type { ChangedFile } from '../../github/api.js'

/** The files whose folder is the docs site's root, as Mintlify finds it. */
export const DOCS_CONFIGS = ['docs.json', 'mint.json'] as const

/** Folders looked in for the docs configuration beyond the repository's root. */
const MAX_ROOT_FOLDERS = 2

const PAGE = /\.mdx?$/i

/**
 * The site path Mintlify serves a docs file at (`guides/retry.mdx` → `/guides/retry`, an `index`
 * → its folder's path), or undefined for a file that is no page: not Markdown, outside the docs
 * root `root` (`''` for the repository's root), or a snippet.
 */
export function sitePath(file: string, root: string): string | undefined {
  const prefix = root ? `${root}/` : ''
  if (!file.startsWith(prefix) || !PAGE.test(file)) return undefined
  const relative = file.slice(prefix.length)
  if (relative.startsWith('snippets/')) return undefined
  const parts = relative.replace(PAGE, '').split('/')
  if (parts.some(p => !p || p === '.' || p === '..')) return undefined
  if (parts[parts.length - 1]?.toLowerCase() === 'index') parts.pop()
  return `/${parts.join('/')}`
}

/**
 * The pages a docs pull request changed, each once: removed files are no page any more, a renamed
 * one counts by its new path.
 */
export function pagesOf(files: readonly ChangedFile[], root: string): string[] {
  const pages = new Set<string>()
  for (const file of files) {
    if (file.status === 'removed') continue
    const path = sitePath(file.path, root)
    if (path) pages.add(path)
  }
  return [...pages].sort()
}

/** The same page however the service writes it: leading slash, no trailing one, any case. */
export const samePage = (path: string): string =>
  `/${path.trim().replace(/^\/+|\/+$/g, '')}`.toLowerCase()

/**
 * The docs root of a docs repository: the folder of its `docs.json` or `mint.json`, looked for at
 * the repository's root, then in the first folders of the changed (not removed) Markdown files (at
 * most 1 + MAX_ROOT_FOLDERS requests; `folderNames` answers [] for a folder that is not there).
 * Undefined when none of them holds one.
 */
export async function findDocsRoot(
  folderNames: (path: string) => Promise<string[]>,
  files: readonly ChangedFile[]
): Promise<string | undefined> {
  const firstFolders = new Set<string>()
  for (const file of files) {
    // A removed file's folder may be gone from the default branch.
    if (file.status === 'removed') continue
    const [first, ...rest] = file.path.split('/')
    if (rest.length && first && PAGE.test(file.path)) firstFolders.add(first)
  }
  for (const folder of ['', ...[...firstFolders].slice(0, MAX_ROOT_FOLDERS)]) {
    const names = await folderNames(folder)
    if (names.some(n => (DOCS_CONFIGS as readonly string[]).includes(n))) return folder
  }
  return undefined
}
