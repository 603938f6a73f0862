import { type DocsConfig, at, configFolders, insideRoot } from './routing.js'

/**
 * Which folder of a repository Mintlify deploys: a setting of its dashboard, which the repository
 * does not hold. Mintlify's default is the repository's root; a monorepo names a folder. So: the
 * folder a team names (`docs-root`); the only folder holding a `docs.json` or `mint.json`; the root
 * when it holds one and its navigation does not contradict it; otherwise another folder only when
 * exactly one other fits (said in a note), and "unsure" when none or several do. The deeper folder
 * is never taken silently.
 */

/** What a folder's configuration says of it, read: it fits, or why it does not; or not read yet. */
export type Verdict = { fits: true } | { fits: false; why: string } | 'unread'

export type RootDecision =
  | { root: string; config: DocsConfig; note?: string }
  | { unsure: string }
  /** These folders' configurations must be read before the folder can be told. */
  | { need: string[] }

/** What a run knows of the docs root a team names. */
export interface RootSetting {
  /**
   * The folder Mintlify deploys, relative to the repository's root (the policy file's `docs-root`),
   * when it is not the root; `''` names the root. Undefined: chosen as this file says.
   */
  docsRoot?: string
}

/** Folders judged by their configuration at most, beside the root: each is one more read. */
const MAX_JUDGED = 3

/** What a `docs-root` must be: a folder inside the repository, relative to its root. */
export function parseDocsRoot(value: string): { root: string } | { problem: string } {
  const text = value
    .trim()
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '')
  const problem = {
    problem: `'docs-root' must name a folder inside the repository, relative to its root, with no '..' (it is '${value.slice(0, 100)}')`
  }
  if (text === '' || text === '.') return { root: '' }
  const control = [...text].some(c => c.charCodeAt(0) < 0x20 || c === '\\')
  if (text.length > 300 || control || /^\/|^[a-z][a-z0-9+.-]*:/i.test(text)) return problem
  if (text.split('/').some(p => !p || p === '.' || p === '..')) return problem
  return { root: text }
}

const where = (root: string): string => (root ? `${root}/` : 'the repository root')
const depth = (root: string): number => (root ? root.split('/').length : 0)

/**
 * The docs root of a repository whose files are `paths`, for a change to the files `near`: by
 * `docsRoot` when a team names it, else as above; `judge` reads a folder's configuration.
 */
export function chooseRoot(
  tree: { paths: readonly string[]; truncated: boolean },
  near: readonly string[],
  { docsRoot }: RootSetting,
  judge: (root: string, config: DocsConfig) => Verdict
): RootDecision {
  if (docsRoot !== undefined) {
    const named = parseDocsRoot(docsRoot)
    if ('problem' in named) return { unsure: named.problem }
    const config = (['docs.json', 'mint.json'] as const).find(c =>
      tree.paths.includes(at(named.root, c))
    )
    return config
      ? { root: named.root, config }
      : { unsure: `${where(named.root)}, which 'docs-root' names, holds no docs.json or mint.json` }
  }
  const configs = configFolders(tree.paths)
  if (!configs.size)
    return {
      unsure: tree.truncated
        ? 'the repository is too large for GitHub to list in one read, and the part listed holds no docs.json or mint.json'
        : 'the repository holds no docs.json or mint.json'
    }
  const roots = [...configs.keys()]
  const config = (root: string) => configs.get(root) as DocsConfig
  if (roots.length === 1) return { root: roots[0] as string, config: config(roots[0] as string) }
  const holds = (root: string) => near.filter(f => insideRoot(f, root) !== undefined).length
  if (configs.has('')) {
    const verdict = judge('', config(''))
    if (verdict === 'unread') return { need: [''] }
    if (verdict.fits) return { root: '', config: config('') }
    // The default contradicted: the folders holding the changed files first, the shallowest.
    const others = roots
      .filter(r => r)
      .sort((a, b) => holds(b) - holds(a) || depth(a) - depth(b) || a.localeCompare(b))
    return among(others.slice(0, MAX_JUDGED), `${verdict.why}`, config, judge)
  }
  const holders = roots.filter(r => holds(r) > 0)
  if (holders.length === 1)
    return { root: holders[0] as string, config: config(holders[0] as string) }
  if (!holders.length) {
    // No changed file is in any: a docs.json folder before a mint.json one, the shallowest.
    const legacy = (root: string) => (config(root) === 'mint.json' ? 1 : 0)
    const [first] = roots.sort(
      (a, b) => legacy(a) - legacy(b) || depth(a) - depth(b) || a.localeCompare(b)
    )
    return { root: first as string, config: config(first as string) }
  }
  const nested = holders.sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))
  return among(
    nested.slice(0, MAX_JUDGED),
    `${holders.length} folders hold a docs.json or mint.json and the changed files (${holders.map(where).join(', ')})`,
    config,
    judge
  )
}

/** The one of `candidates` whose configuration fits, said in a note; unsure when none or several do. */
function among(
  candidates: readonly string[],
  why: string,
  config: (root: string) => DocsConfig,
  judge: (root: string, config: DocsConfig) => Verdict
): RootDecision {
  const verdicts = candidates.map(root => [root, judge(root, config(root))] as const)
  const unread = verdicts.filter(([, v]) => v === 'unread').map(([root]) => root)
  if (unread.length) return { need: unread }
  const fitting = verdicts.filter(([, v]) => v !== 'unread' && v.fits).map(([root]) => root)
  const which =
    "which folder Mintlify deploys is a setting of its dashboard: name it with 'docs-root'"
  if (fitting.length === 1) {
    const root = fitting[0] as string
    return {
      root,
      config: config(root),
      note: `The pages are mapped from ${where(root)}, the one folder whose ${config(root)} describes its files: ${why}. If Mintlify deploys another folder, name it with 'docs-root'.`
    }
  }
  return {
    unsure: fitting.length
      ? `${why}, and ${fitting.length} folders describe their files (${fitting.map(where).join(', ')}): ${which}`
      : `${why}, and no other folder's configuration describes its files: ${which}`
  }
}
