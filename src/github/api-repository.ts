import { notFound, type RepoRest, tooLarge } from './rest.js'

/**
 * A file of the default branch as read: its text, or why there is none (no such file; larger than
 * GitHub serves or than the caller reads).
 */
export type RepoFile =
  string | { problem: 'missing' } | { problem: 'too-large'; limit?: number; size?: number }

/** Bytes of one file read at most unless the caller says: past this a file is "too large". */
export const MAX_FILE_BYTES = 10 * 1024 * 1024

/** What GitHub's raw media type serves at most (its contents API's documented limit). */
const GITHUB_RAW_LIMIT = 100 * 1024 * 1024

/** Files read in one GraphQL request at most (fileTexts). */
export const FILES_PER_QUERY = 50

/** What the run's repository holds and who may do what in it, as GitHubApi offers them. */
export interface RepositoryCalls {
  /** The user's permission and role name on the repository. */
  permission(user: string): Promise<{ permission?: string; roleName?: string }>
  /**
   * Every file path of the default branch, in one request (GitHub's recursive tree); `truncated`
   * when GitHub listed only part of a very large tree.
   */
  treePaths(): Promise<{ paths: string[]; truncated: boolean }>
  /**
   * A file's text on the default branch, in one request, `maxBytes` at most (MAX_FILE_BYTES by
   * default). Read with the raw media type, which GitHub serves up to 100 MB: its default JSON
   * answer stops at 1 MB (a 403 `too_large`). Too large is told apart from refused: it is no
   * error, and a refusal (or an outage) throws.
   */
  fileText(path: string, maxBytes?: number): Promise<RepoFile>
  /**
   * The texts of up to FILES_PER_QUERY files of the default branch in one GraphQL request (a Git
   * blob each), for what their first lines say. A path that is no file is missing; a binary file
   * too. GitHub may cut a long text: what it sends is kept.
   */
  fileTexts(paths: readonly string[]): Promise<Map<string, RepoFile>>
}

export function repositoryCalls({ octokit, ...repository }: RepoRest): RepositoryCalls {
  return {
    async permission(user) {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
        ...repository,
        username: user
      })
      // An answer without a permission (a redirect's page, a proxy's) is no answer at all.
      if (typeof data?.permission !== 'string')
        throw new Error('GitHub answered without a permission')
      const roleName = (data as { role_name?: unknown }).role_name
      return {
        permission: data.permission,
        roleName: typeof roleName === 'string' ? roleName : undefined
      }
    },
    async treePaths() {
      const { data } = await octokit.rest.git.getTree({
        ...repository,
        tree_sha: 'HEAD',
        recursive: 'true'
      })
      const entries = Array.isArray(data.tree) ? data.tree : []
      return {
        paths: entries
          .filter(e => e?.type === 'blob' && typeof e.path === 'string')
          .map(e => e.path as string),
        truncated: data.truncated === true
      }
    },
    async fileText(path, maxBytes = MAX_FILE_BYTES) {
      let answer: { headers: Record<string, unknown>; data: unknown }
      try {
        answer = await octokit.rest.repos.getContent({
          ...repository,
          path,
          headers: { accept: 'application/vnd.github.raw+json' },
          // The body as it comes, so that no more than maxBytes of it is ever held.
          request: { parseSuccessResponseBody: false }
        })
      } catch (error) {
        if (notFound(error)) return { problem: 'missing' }
        if (tooLarge(error)) return { problem: 'too-large', limit: GITHUB_RAW_LIMIT }
        throw error
      }
      const body = answer.data as ReadableStream<Uint8Array> | null | undefined
      const size = Number(answer.headers['content-length'])
      if (Number.isFinite(size) && size > maxBytes) {
        await body?.cancel().catch(() => undefined)
        return { problem: 'too-large', limit: maxBytes, size }
      }
      const bytes = await readAtMost(body, maxBytes)
      return bytes ? new TextDecoder().decode(bytes) : { problem: 'too-large', limit: maxBytes }
    },
    async fileTexts(paths) {
      if (paths.length > FILES_PER_QUERY)
        throw new Error(`fileTexts reads ${FILES_PER_QUERY} files a request at most`)
      const files = new Map<string, RepoFile>()
      if (!paths.length) return files
      const variables: Record<string, string> = { owner: repository.owner, name: repository.repo }
      paths.forEach((p, i) => (variables[`p${i}`] = `HEAD:${p}`))
      const query = `query($owner: String!, $name: String!, ${paths.map((_, i) => `$p${i}: String!`).join(', ')}) {
  repository(owner: $owner, name: $name) {
    ${paths.map((_, i) => `f${i}: object(expression: $p${i}) { ... on Blob { text isBinary byteSize } }`).join('\n    ')}
  }
}`
      const data = await octokit.graphql<{ repository: Record<string, unknown> | null }>(
        query,
        variables
      )
      paths.forEach((p, i) => files.set(p, blobFile(data?.repository?.[`f${i}`])))
      return files
    }
  }
}

/** A Git blob as GraphQL answers it: its text; missing when it is no blob or binary. */
function blobFile(node: unknown): RepoFile {
  const blob = (node ?? {}) as { text?: unknown; isBinary?: unknown; byteSize?: unknown }
  if (typeof blob.text === 'string') return blob.text
  if (blob.isBinary === false && typeof blob.byteSize === 'number' && blob.byteSize > 0)
    return { problem: 'too-large', size: blob.byteSize }
  return { problem: 'missing' }
}

/** A body's bytes, or undefined when it holds more than `max`: reading stops there. */
async function readAtMost(
  body: ReadableStream<Uint8Array> | null | undefined,
  max: number
): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let total = 0
  const reader = body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > max) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  const all = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}
