/** What the fake knows of repositories' default branches. */
export interface ContentStore {
  /** The files of a repository's default branch, by `owner/repo`. */
  trees: ReadonlyMap<string, readonly string[]>
  /** Files' texts, by `owner/repo:path` (a file of `trees` not here is empty). */
  texts: ReadonlyMap<string, string>
  /** Repositories whose recursive tree GitHub lists only in part (`truncated`): the first n files. */
  truncatedTrees: ReadonlyMap<string, number>
}

/**
 * `GET /repos/{owner}/{repo}/contents/{path}` of the fake GitHub, and the default branch's tree
 * (`git/trees/HEAD`, the root's entries or, with `recursive`, every file): a folder's entries, or a
 * file with its text, from the files a repository holds on its default branch. An answer, `null`
 * when a failure was sent, or undefined when the route is another.
 */
export async function contentsRoute(
  store: ContentStore,
  route: string,
  url: URL,
  fail: (name: string) => Promise<boolean>
): Promise<{ status: number; body: unknown } | null | undefined> {
  const trees = store.trees
  const tree = /^\/repos\/([^/]+\/[^/]+)\/git\/trees\/HEAD$/.exec(route)
  if (tree) {
    const repo = tree[1] as string
    // GitHub takes any value of `recursive` as asking for the whole tree.
    if (url.searchParams.has('recursive')) {
      if (await fail('tree')) return null
      return {
        status: 200,
        body: wholeTree(repo, trees.get(repo) ?? [], store.truncatedTrees.get(repo))
      }
    }
    if (await fail('contents')) return null
    return { status: 200, body: rootTree(repo, trees.get(repo) ?? []) }
  }
  const m = /^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/.exec(route)
  if (!m) return undefined
  if (await fail('contents')) return null
  const repo = m[1] as string
  const path = decodeURIComponent(m[2] as string).replace(/\/+$/, '')
  const files = trees.get(repo) ?? []
  const notFound = { status: 404, body: { message: 'Not Found' } }
  if (files.includes(path)) {
    const content = Buffer.from(store.texts.get(`${repo}:${path}`) ?? '').toString('base64')
    return { status: 200, body: { ...entry(repo, path, 'file'), content, encoding: 'base64' } }
  }
  const prefix = path ? `${path}/` : ''
  const names = new Map<string, 'file' | 'dir'>()
  for (const file of files) {
    if (!file.startsWith(prefix)) continue
    const [name, ...rest] = file.slice(prefix.length).split('/')
    if (name) names.set(name, rest.length ? 'dir' : 'file')
  }
  if (!names.size) return notFound
  return {
    status: 200,
    body: [...names].map(([name, type]) => entry(repo, `${prefix}${name}`, type))
  }
}

/** `GET /repos/{owner}/{repo}/git/trees/HEAD`: the root's entries, not recursive. */
function rootTree(repo: string, files: readonly string[]): Record<string, unknown> {
  const names = new Map<string, 'blob' | 'tree'>()
  for (const file of files) {
    const [name, ...rest] = file.split('/')
    if (name) names.set(name, rest.length ? 'tree' : 'blob')
  }
  return treeBody(repo, [...names], false)
}

/**
 * `GET /repos/{owner}/{repo}/git/trees/HEAD?recursive=1`: every folder and file, as GitHub lists
 * them; with `limit`, only that many files and `truncated`.
 */
function wholeTree(repo: string, all: readonly string[], limit?: number): Record<string, unknown> {
  const files = limit === undefined ? all : all.slice(0, limit)
  const folders = new Set<string>()
  for (const file of files) {
    const parts = file.split('/')
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'))
  }
  const entries = [...folders].map(f => [f, 'tree'] as const)
  return treeBody(repo, [...entries, ...files.map(f => [f, 'blob'] as const)], limit !== undefined)
}

/** A tree answer of these entries, as GitHub writes one. */
function treeBody(
  repo: string,
  entries: readonly (readonly [string, 'blob' | 'tree'])[],
  truncated: boolean
): Record<string, unknown> {
  const sha = 'd'.repeat(40)
  return {
    sha,
    url: `https://api.github.com/repos/${repo}/git/trees/${sha}`,
    truncated,
    tree: entries.map(([path, type]) => ({
      path,
      mode: type === 'tree' ? '040000' : '100644',
      type,
      sha,
      ...(type === 'blob' ? { size: 100 } : {}),
      url: `https://api.github.com/repos/${repo}/git/${type}s/${sha}`
    }))
  }
}

function entry(repo: string, path: string, type: 'file' | 'dir'): Record<string, unknown> {
  const url = `https://api.github.com/repos/${repo}/contents/${path}`
  const html = `https://github.com/${repo}/${type === 'dir' ? 'tree' : 'blob'}/main/${path}`
  const git = `https://api.github.com/repos/${repo}/git/${type === 'dir' ? 'trees' : 'blobs'}/${'e'.repeat(40)}`
  return {
    type,
    size: type === 'file' ? 100 : 0,
    name: path.split('/').pop(),
    path,
    sha: 'e'.repeat(40),
    url,
    git_url: git,
    html_url: html,
    download_url: type === 'file' ? `https://raw.githubusercontent.com/${repo}/main/${path}` : null,
    _links: { self: url, git, html }
  }
}
