/** What the fake knows of repositories' default branches. */
export interface ContentStore {
  /** The files of a repository's default branch, by `owner/repo`. */
  trees: ReadonlyMap<string, readonly string[]>
  /** Files' texts, by `owner/repo:path` (a file of `trees` not here is empty). */
  texts: ReadonlyMap<string, string>
  /** Repositories whose recursive tree GitHub lists only in part (`truncated`): the first n files. */
  truncatedTrees: ReadonlyMap<string, number>
  /**
   * Files' sizes in bytes, by `owner/repo:path`, for files larger than a test holds in memory (over
   * 100 MB): the size GitHub judges them by. Otherwise a file's size is its text's.
   */
  sizes: ReadonlyMap<string, number>
}

/** An answer of the contents route: JSON, or a file's raw bytes. */
export type ContentsAnswer =
  { status: number; body: unknown } | { status: 200; raw: Buffer; contentType: string }

/** Files up to this size only in the contents API's JSON ("1 MB or smaller"). */
const JSON_LIMIT = 1024 * 1024
/** Files past this size not at all ("Greater than 100 MB: This endpoint is not supported"). */
const RAW_LIMIT = 100 * 1024 * 1024

/** GitHub's 403 for a file too large to serve the way it was asked for. */
const TOO_LARGE = {
  message:
    'This API returns blobs up to 1 MB in size. The requested blob is too large to fetch via the API, but you can use the Git Data API to request blobs up to 100 MB in size.',
  errors: [{ resource: 'Blob', field: 'data', code: 'too_large' }],
  documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content',
  status: '403'
}

/**
 * The media type asked for in `accept`: `raw` (`application/vnd.github.raw+json`, or the older
 * `application/vnd.github.v3.raw`), `object` (`application/vnd.github.object+json`), or the default
 * JSON.
 */
function mediaType(accept: string): 'raw' | 'object' | 'json' {
  if (/application\/vnd\.github(?:\.v3)?\.raw/i.test(accept)) return 'raw'
  if (/application\/vnd\.github(?:\.v3)?\.object/i.test(accept)) return 'object'
  return 'json'
}

/**
 * `GET /repos/{owner}/{repo}/contents/{path}` of the fake GitHub, and the default branch's recursive
 * tree (`git/trees/HEAD?recursive=1`, every file; the action asks for no other tree, so the fake
 * serves none): a folder's entries, or a file with its text, from the files a repository holds on its default branch. As GitHub documents
 * the contents route's media types and sizes: a file over 1 MB is a 403 `too_large` in the default
 * JSON, an empty `content` with `encoding: "none"` in the object media type, its bytes raw; over
 * 100 MB a 403 `too_large` however asked. An answer, `null` when a failure was sent, or undefined
 * when the route is another.
 */
export async function contentsRoute(
  store: ContentStore,
  route: string,
  url: URL,
  fail: (name: string) => Promise<boolean>,
  accept = ''
): Promise<ContentsAnswer | null | undefined> {
  const trees = store.trees
  const tree = /^\/repos\/([^/]+\/[^/]+)\/git\/trees\/HEAD$/.exec(route)
  // GitHub takes any value of `recursive` as asking for the whole tree.
  if (tree && url.searchParams.has('recursive')) {
    const repo = tree[1] as string
    if (await fail('tree')) return null
    return {
      status: 200,
      body: wholeTree(repo, trees.get(repo) ?? [], store.truncatedTrees.get(repo))
    }
  }
  const m = /^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/.exec(route)
  if (!m) return undefined
  if (await fail('contents')) return null
  const repo = m[1] as string
  const path = decodeURIComponent(m[2] as string).replace(/\/+$/, '')
  const files = trees.get(repo) ?? []
  const notFound = { status: 404, body: { message: 'Not Found' } }
  const media = mediaType(accept)
  if (files.includes(path)) {
    const bytes = Buffer.from(store.texts.get(`${repo}:${path}`) ?? '')
    const size = store.sizes.get(`${repo}:${path}`) ?? bytes.length
    if (size > RAW_LIMIT || (size > JSON_LIMIT && media === 'json'))
      return { status: 403, body: TOO_LARGE }
    if (media === 'raw')
      return { status: 200, raw: bytes, contentType: 'application/vnd.github.raw' }
    const large = size > JSON_LIMIT
    return {
      status: 200,
      body: {
        ...entry(repo, path, 'file', size),
        content: large ? '' : bytes.toString('base64'),
        encoding: large ? 'none' : 'base64'
      }
    }
  }
  const prefix = path ? `${path}/` : ''
  const names = new Map<string, 'file' | 'dir'>()
  for (const file of files) {
    if (!file.startsWith(prefix)) continue
    const [name, ...rest] = file.slice(prefix.length).split('/')
    if (name) names.set(name, rest.length ? 'dir' : 'file')
  }
  if (!names.size) return notFound
  const entries = [...names].map(([name, type]) =>
    entry(repo, `${prefix}${name}`, type, sizeOf(store, repo, `${prefix}${name}`))
  )
  // A folder is listed as JSON whatever the media type; the object one wraps it in `entries`.
  return {
    status: 200,
    body: media === 'object' ? { ...entry(repo, path, 'dir', 0), entries } : entries
  }
}

/** A file's size as GitHub judges it: declared, or its text's bytes. */
const sizeOf = (store: ContentStore, repo: string, path: string): number =>
  store.sizes.get(`${repo}:${path}`) ?? Buffer.byteLength(store.texts.get(`${repo}:${path}`) ?? '')

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

function entry(
  repo: string,
  path: string,
  type: 'file' | 'dir',
  size: number
): Record<string, unknown> {
  const url = `https://api.github.com/repos/${repo}/contents/${path}`
  const html = `https://github.com/${repo}/${type === 'dir' ? 'tree' : 'blob'}/main/${path}`
  const git = `https://api.github.com/repos/${repo}/git/${type === 'dir' ? 'trees' : 'blobs'}/${'e'.repeat(40)}`
  return {
    type,
    size: type === 'file' ? size : 0,
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
