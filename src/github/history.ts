import { type PullRequestRef, isBot } from './event.js'

/**
 * Reading what changed on a branch through GitHub's GraphQL API: the commits back to a known one,
 * the pull request each came through, and the pull requests' file lists without their patches,
 * which the REST API cannot leave out (300 files of 1 MB patches are 300 MB to download and parse).
 */
export type GraphQL = (query: string, variables: Record<string, unknown>) => Promise<unknown>

export interface HistoryCommit {
  sha: string
  message: string
  /** The author's GitHub login, or the commit's author name when GitHub knows no account. */
  author: string
  authorIsBot: boolean
  /** The merged pull request into `base` that this commit came through, when there is one. */
  pull?: number
}

export interface History {
  /** Newest first, from `head` back to `since` (not included). */
  commits: HistoryCommit[]
  /** `since` was found: the list is the whole range. */
  reachedSince: boolean
}

/** Commits read at most in one request: GitHub's page limit. */
export const MAX_HISTORY = 100

const HISTORY_QUERY = `query($owner: String!, $name: String!, $head: GitObjectID!, $first: Int!, $after: String, $since: GitTimestamp) {
  repository(owner: $owner, name: $name) {
    object(oid: $head) {
      ... on Commit {
        history(first: $first, after: $after, since: $since) {
          pageInfo { hasNextPage endCursor }
          nodes {
            oid
            message
            author { name user { login } }
            associatedPullRequests(first: 3) { nodes { number merged baseRefName } }
          }
        }
      }
    }
  }
}`

/**
 * The commits reachable from `head`, newest first, up to `since` (the last documented commit) or
 * `max` commits a page, whichever comes first: one request a page, `pages` at most (1 by default).
 * Each is matched to the merged pull request into `base` it belongs to.
 */
export async function readHistory(
  graphql: GraphQL,
  where: {
    owner: string
    repo: string
    head: string
    since?: string
    /** Only commits made at or after this time (epoch ms): a window instead of a known commit. */
    from?: number
    base: string
    max: number
    pages?: number
  }
): Promise<History> {
  const commits: HistoryCommit[] = []
  let after: string | undefined
  for (let page = 1; page <= (where.pages ?? 1); page++) {
    const data = (await graphql(HISTORY_QUERY, {
      owner: where.owner,
      name: where.repo,
      head: where.head,
      first: Math.min(where.max, MAX_HISTORY),
      after,
      since: where.from === undefined ? null : new Date(where.from).toISOString()
    })) as { repository?: { object?: { history?: HistoryPage } | null } | null }
    const history = data?.repository?.object?.history
    const nodes = history?.nodes
    if (!Array.isArray(nodes)) throw new Error(`GitHub knows no commit ${where.head.slice(0, 12)}`)
    for (const node of nodes) {
      const c = (node ?? {}) as Record<string, unknown>
      if (typeof c.oid !== 'string') continue
      if (c.oid === where.since) return { commits, reachedSince: true }
      commits.push(historyCommit(c, c.oid, where.base))
    }
    const next = history?.pageInfo
    // A window is whole once GitHub says no page follows.
    if (!next?.hasNextPage && where.from !== undefined) return { commits, reachedSince: true }
    if (!next?.hasNextPage || typeof next.endCursor !== 'string') break
    after = next.endCursor
  }
  return { commits, reachedSince: where.since === undefined }
}

interface HistoryPage {
  nodes?: unknown[]
  pageInfo?: { hasNextPage?: unknown; endCursor?: unknown }
}

function historyCommit(c: Record<string, unknown>, sha: string, base: string): HistoryCommit {
  const author = (c.author ?? {}) as { name?: unknown; user?: { login?: unknown } | null }
  const login = typeof author.user?.login === 'string' ? author.user.login : ''
  const name = login || (typeof author.name === 'string' ? author.name : '')
  const pulls = ((c.associatedPullRequests as { nodes?: unknown[] } | undefined)?.nodes ?? [])
    .map(p => (p ?? {}) as { number?: unknown; merged?: unknown; baseRefName?: unknown })
    .filter(p => typeof p.number === 'number' && p.merged === true && p.baseRefName === base)
  return {
    sha,
    message: typeof c.message === 'string' ? c.message : '',
    author: name,
    // GitHub links a bot's commits to no user account; its name ends in [bot].
    authorIsBot: isBot(name, undefined),
    pull: pulls[0]?.number as number | undefined
  }
}

/** A pull request with its file list, as the prompt and the skip rules need it. */
export interface PullDetails extends Omit<
  PullRequestRef,
  'changedFiles' | 'additions' | 'deletions' | 'createdAt' | 'mergedAt' | 'closedAt'
> {
  /** Totals, always read here (the payload may lack them). */
  changedFiles: number
  additions: number
  deletions: number
  /** Up to the first 100 files, without patches. */
  files: { path: string; additions: number; deletions: number; status: string }[]
}

/** Pull requests read in one request at most. */
export const MAX_PULLS = 25

const PULL_FIELDS = `number title body url merged state baseRefName
  author { login __typename }
  labels(first: 50) { nodes { name } }
  mergeCommit { oid }
  changedFiles additions deletions
  files(first: 100) { nodes { path additions deletions changeType } }`

/** The pull requests by number, with their files (no patches): one request for up to MAX_PULLS. */
export async function readPulls(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  numbers: readonly number[]
): Promise<Map<number, PullDetails>> {
  const wanted = [...new Set(numbers)].filter(n => Number.isInteger(n) && n > 0).slice(0, MAX_PULLS)
  const found = new Map<number, PullDetails>()
  if (wanted.length === 0) return found
  // Aliases are built from whole numbers only: nothing from outside reaches the query's text.
  const fields = wanted.map(n => `p${n}: pullRequest(number: ${n}) { ${PULL_FIELDS} }`).join('\n')
  const query = `query($owner: String!, $name: String!) {\n repository(owner: $owner, name: $name) {\n${fields}\n }\n}`
  const data = (await graphql(query, { owner: where.owner, name: where.repo })) as {
    repository?: Record<string, unknown> | null
  }
  for (const n of wanted) {
    const pull = asPull(data?.repository?.[`p${n}`])
    if (pull) found.set(n, pull)
  }
  return found
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')
const count = (v: unknown): number => (typeof v === 'number' && v >= 0 ? v : 0)

function asPull(value: unknown): PullDetails | undefined {
  if (!value || typeof value !== 'object') return undefined
  const p = value as Record<string, unknown>
  if (typeof p.number !== 'number') return undefined
  const author = (p.author ?? {}) as { login?: unknown; __typename?: unknown }
  // GraphQL names a bot (an App) without `[bot]`: REST's name, as an event payload gives it.
  const login =
    author.__typename === 'Bot' && text(author.login) && !/\[bot\]$/i.test(text(author.login))
      ? `${text(author.login)}[bot]`
      : text(author.login)
  const nodes = (v: unknown): Record<string, unknown>[] =>
    (((v ?? {}) as { nodes?: unknown }).nodes as Record<string, unknown>[] | undefined)?.filter(
      n => n && typeof n === 'object'
    ) ?? []
  return {
    number: p.number,
    title: text(p.title),
    body: text(p.body),
    url: text(p.url),
    author: login,
    authorIsBot: isBot(login, author.__typename),
    base: text(p.baseRefName),
    merged: p.merged === true,
    // GraphQL says MERGED where REST says closed (and merged).
    state: text(p.state).toLowerCase() === 'open' ? 'open' : 'closed',
    labels: nodes(p.labels)
      .map(l => text(l.name))
      .filter(Boolean),
    mergeCommit: text((p.mergeCommit as { oid?: unknown } | null)?.oid) || undefined,
    changedFiles: count(p.changedFiles),
    additions: count(p.additions),
    deletions: count(p.deletions),
    files: nodes(p.files)
      .filter(f => typeof f.path === 'string' && f.path)
      .map(f => ({
        path: f.path as string,
        additions: count(f.additions),
        deletions: count(f.deletions),
        // As the REST API names them: GraphQL's DELETED is REST's removed.
        status: text(f.changeType).toLowerCase().replace('deleted', 'removed') || 'changed'
      }))
  }
}

/** Who the token is (GraphQL's `viewer`: a user, or an app's bot), or undefined when GitHub does not say. */
export async function viewerLogin(graphql: GraphQL): Promise<string | undefined> {
  const data = (await graphql('query { viewer { login } }', {})) as {
    viewer?: { login?: unknown }
  }
  return typeof data?.viewer?.login === 'string' && data.viewer.login
    ? data.viewer.login
    : undefined
}

/** A repository's default branch and its newest commit, or undefined when GitHub names none. */
export async function defaultBranchHead(
  graphql: GraphQL,
  where: { owner: string; repo: string }
): Promise<{ sha: string; branch: string } | undefined> {
  const data = (await graphql(
    'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { defaultBranchRef { name target { oid } } } }',
    { owner: where.owner, name: where.repo }
  )) as {
    repository?: { defaultBranchRef?: { name?: unknown; target?: { oid?: unknown } } | null }
  }
  const ref = data?.repository?.defaultBranchRef
  return typeof ref?.name === 'string' && typeof ref.target?.oid === 'string'
    ? { sha: ref.target.oid, branch: ref.name }
    : undefined
}

/** A repository's head as a read of several says it: its branch and commit, or why there is none. */
export type RepositoryHead =
  | {
      sha: string
      branch: string
      /** GitHub's node id: it survives a rename. */
      id?: string
      /** The name GitHub has for it now (`owner/repo`): another than asked after a rename. */
      name?: string
    }
  | {
      /** GitHub's words, or that it named no default branch. */
      missing: string
      /** GitHub answered NOT_FOUND or FORBIDDEN: the token cannot see it. */
      refused: boolean
    }

/**
 * Several repositories' default branches and newest commits in one request (an alias each, the
 * names passed as variables). GitHub answers those it can and names the others in its errors: a
 * repository the token cannot see is `refused`, and the others are read all the same.
 */
export async function defaultBranchHeads(
  graphql: GraphQL,
  repositories: readonly { owner: string; repo: string }[]
): Promise<RepositoryHead[]> {
  if (!repositories.length) return []
  const variables: Record<string, unknown> = {}
  const declared: string[] = []
  const fields: string[] = []
  repositories.forEach((r, i) => {
    declared.push(`$o${i}: String!, $n${i}: String!`)
    fields.push(
      `r${i}: repository(owner: $o${i}, name: $n${i}) { id nameWithOwner defaultBranchRef { name target { oid } } }`
    )
    variables[`o${i}`] = r.owner
    variables[`n${i}`] = r.repo
  })
  const query = `query(${declared.join(', ')}) {\n${fields.join('\n')}\n}`
  let data: Record<string, unknown> | undefined
  let errors: unknown[] = []
  try {
    data = (await graphql(query, variables)) as Record<string, unknown> | undefined
  } catch (error) {
    // GitHub's answer with errors beside the data it could give: Octokit throws it, data attached.
    const partial = error as { name?: unknown; data?: unknown; errors?: unknown } | undefined
    if (partial?.name !== 'GraphqlResponseError' || !partial.data) throw error
    data = partial.data as Record<string, unknown>
    errors = Array.isArray(partial.errors) ? partial.errors : []
  }
  return repositories.map((_, i) => {
    const node = data?.[`r${i}`] as {
      id?: unknown
      nameWithOwner?: unknown
      defaultBranchRef?: { name?: unknown; target?: { oid?: unknown } | null } | null
    } | null
    const ref = node?.defaultBranchRef
    if (typeof ref?.name === 'string' && typeof ref.target?.oid === 'string')
      return {
        sha: ref.target.oid,
        branch: ref.name,
        ...(typeof node?.id === 'string' ? { id: node.id } : {}),
        ...(typeof node?.nameWithOwner === 'string' ? { name: node.nameWithOwner } : {})
      }
    const said = errors
      .map(e => (e ?? {}) as { path?: unknown; type?: unknown; message?: unknown })
      .find(e => Array.isArray(e.path) && e.path[0] === `r${i}`)
    return {
      missing:
        typeof said?.message === 'string'
          ? said.message.slice(0, 300)
          : 'GitHub named no default branch',
      refused: said?.type === 'NOT_FOUND' || said?.type === 'FORBIDDEN'
    }
  })
}
