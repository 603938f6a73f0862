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

const LIST_QUERY = `query($owner: String!, $name: String!, $first: Int!) {
  repository(owner: $owner, name: $name) {
    defaultBranchRef { name }
    pullRequests(states: MERGED, first: $first, orderBy: { field: UPDATED_AT, direction: DESC }) {
      nodes { ${PULL_FIELDS} }
    }
  }
}`

/**
 * The pull requests merged into the default branch since `since` (epoch ms), newest first: one
 * request, the 100 most recently updated merged pull requests. `more` says the list may have left
 * out some of the window (all 100 merged inside it).
 */
export async function readMergedPulls(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  since: number
): Promise<{ changes: ChangeDetails[]; more: boolean; branch: string }> {
  const data = (await graphql(LIST_QUERY, {
    owner: where.owner,
    name: where.repo,
    first: MAX_LISTED_PULLS
  })) as {
    repository?: {
      defaultBranchRef?: { name?: unknown } | null
      pullRequests?: { nodes?: unknown[] } | null
    } | null
  }
  const repository = data?.repository
  const branch = text(repository?.defaultBranchRef?.name)
  const nodes = Array.isArray(repository?.pullRequests?.nodes) ? repository.pullRequests.nodes : []
  const merged = nodes
    .filter(node => text((node as { baseRefName?: unknown } | null)?.baseRefName) === branch)
    .map(asPull)
    .filter((c): c is ChangeDetails => c !== undefined)
  const changes = merged.filter(c => c.mergedAt >= since).sort((a, b) => b.mergedAt - a.mergedAt)
  return {
    changes,
    more: nodes.length >= MAX_LISTED_PULLS && changes.length === merged.length,
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
