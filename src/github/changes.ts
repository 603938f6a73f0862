import type { GraphQL } from './history.js'

/**
 * What the default branch took in, read through GitHub's GraphQL API for the gaps sub-action: each
 * change's merge time, description and file paths (no patches), a fixed number of requests however
 * many changes there are.
 */
export interface ChangeDetails {
  /** The merge (or pushed) commit, when known. */
  sha?: string
  pr?: number
  title: string
  /** The pull request's description, or the commit's message after its first line. */
  body: string
  url: string
  /** Epoch ms. */
  mergedAt: number
  /** Up to the first 100 paths. */
  files: string[]
}

/** Changes described in one request at most (aliases of one query). */
export const CHANGES_PER_REQUEST = 25
/** Merged pull requests one request lists: GitHub's page limit. */
export const MAX_LISTED_PULLS = 100

/** An owner's or a repository's name, as GitHub allows them: nothing else reaches a search. */
const NAME = /^[A-Za-z0-9_.-]+$/

const PULL_FIELDS = `number title body url merged mergedAt baseRefName mergeCommit { oid }
  files(first: 100) { nodes { path } }`
const COMMIT_FIELDS = `... on Commit { oid message committedDate url }`

const SHA = /^[0-9a-f]{40}$/

/**
 * The changes by pull request number or, for a commit pushed without one, by sha: their details in
 * ceil(n / CHANGES_PER_REQUEST) requests. Those GitHub does not know, or that never merged, are
 * left out.
 */
export async function readChanges(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  refs: readonly { sha: string; pr?: number }[]
): Promise<ChangeDetails[]> {
  const found: ChangeDetails[] = []
  // Aliases are built from whole numbers and checked shas only: nothing else reaches the query.
  const usable = refs.filter(r =>
    r.pr !== undefined ? Number.isInteger(r.pr) && r.pr > 0 : SHA.test(r.sha)
  )
  for (let i = 0; i < usable.length; i += CHANGES_PER_REQUEST) {
    const batch = usable.slice(i, i + CHANGES_PER_REQUEST)
    const fields = batch.map((r, n) =>
      r.pr !== undefined
        ? `c${n}: pullRequest(number: ${r.pr}) { ${PULL_FIELDS} }`
        : `c${n}: object(oid: "${r.sha}") { ${COMMIT_FIELDS} }`
    )
    const query = `query($owner: String!, $name: String!) {\n repository(owner: $owner, name: $name) {\n${fields.join('\n')}\n }\n}`
    const data = (await graphql(query, { owner: where.owner, name: where.repo })) as {
      repository?: Record<string, unknown> | null
    }
    batch.forEach((ref, n) => {
      const node = data?.repository?.[`c${n}`]
      const change = ref.pr !== undefined ? asPull(node) : asCommit(node)
      if (change) found.push(change)
    })
  }
  return found
}

// GitHub's search selects by merge time (`merged:>=`), which its pull request lists cannot: they
// order by creation or update only, and a bot's label on an old pull request would take a slot.
const LIST_QUERY = `query($owner: String!, $name: String!, $search: String!, $first: Int!) {
  repository(owner: $owner, name: $name) { defaultBranchRef { name } }
  search(query: $search, type: ISSUE, first: $first) {
    issueCount
    nodes { ... on PullRequest { ${PULL_FIELDS} } }
  }
}`

/**
 * The pull requests merged into the default branch since `since` (epoch ms), newest merge first:
 * one request, GitHub's search for the pull requests merged since then (the most recently opened
 * MAX_LISTED_PULLS of them). `unread` counts those merged since then that the request did not
 * list (into any branch), as GitHub counts them. GitHub's search is eventually consistent: a merge
 * of the last minutes may not be listed yet.
 */
export async function readMergedPulls(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  since: number
): Promise<{ changes: ChangeDetails[]; unread: number; branch: string }> {
  if (!NAME.test(where.owner) || !NAME.test(where.repo))
    throw new Error(`'${where.owner}/${where.repo}' is no repository name GitHub allows.`)
  const from = new Date(since).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const data = (await graphql(LIST_QUERY, {
    owner: where.owner,
    name: where.repo,
    search: `repo:${where.owner}/${where.repo} is:pr is:merged merged:>=${from} sort:created-desc`,
    first: MAX_LISTED_PULLS
  })) as {
    repository?: { defaultBranchRef?: { name?: unknown } | null } | null
    search?: { issueCount?: unknown; nodes?: unknown[] } | null
  }
  const branch = text(data?.repository?.defaultBranchRef?.name)
  const nodes = Array.isArray(data?.search?.nodes) ? data.search.nodes : []
  const count = data?.search?.issueCount
  const changes = nodes
    .filter(node => text((node as { baseRefName?: unknown } | null)?.baseRefName) === branch)
    .map(asPull)
    .filter((c): c is ChangeDetails => c !== undefined && c.mergedAt >= since)
    .sort((a, b) => b.mergedAt - a.mergedAt)
  return {
    changes,
    unread: typeof count === 'number' ? Math.max(0, count - nodes.length) : 0,
    branch
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')
const time = (v: unknown): number => (typeof v === 'string' ? Date.parse(v) : Number.NaN)

function asPull(value: unknown): ChangeDetails | undefined {
  if (!value || typeof value !== 'object') return undefined
  const p = value as Record<string, unknown>
  const mergedAt = time(p.mergedAt)
  if (typeof p.number !== 'number' || p.merged !== true || !Number.isFinite(mergedAt))
    return undefined
  const files = ((p.files as { nodes?: unknown } | null)?.nodes ?? []) as unknown[]
  const sha = text((p.mergeCommit as { oid?: unknown } | null)?.oid)
  return {
    ...(SHA.test(sha) ? { sha } : {}),
    pr: p.number,
    title: text(p.title),
    body: text(p.body),
    url: text(p.url),
    mergedAt,
    files: (Array.isArray(files) ? files : [])
      .map(f => text((f as { path?: unknown } | null)?.path))
      .filter(Boolean)
  }
}

function asCommit(value: unknown): ChangeDetails | undefined {
  if (!value || typeof value !== 'object') return undefined
  const c = value as Record<string, unknown>
  const mergedAt = time(c.committedDate)
  if (!SHA.test(text(c.oid)) || !Number.isFinite(mergedAt)) return undefined
  const [first = '', ...rest] = text(c.message).split('\n')
  return {
    sha: text(c.oid),
    title: first,
    body: rest.join('\n').trim(),
    url: text(c.url),
    mergedAt,
    // GraphQL lists no commit's files: the diff excerpt (REST) names them.
    files: []
  }
}
