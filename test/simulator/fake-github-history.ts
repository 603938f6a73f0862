import {
  type ChangeStore,
  type FakeCommit,
  type FakePull,
  type FakeTimelineItem,
  currentName,
  pullView,
  repositoryId
} from './fake-github-changes.js'

/**
 * What happens to repositories' history on the fake GitHub: what a test's people do (commit, merge,
 * rename a repository, push to a pull request, remove a label), and the action's writes to pull
 * requests (close or retitle one, ask for reviewers).
 */
export interface HistoryStore extends ChangeStore {
  /** The number of the last commit made (its sha is made from it). */
  readonly numbers: { commit: number }
  /** Permission answers by login: who is a collaborator, who may be asked to review. */
  readonly permissions: ReadonlyMap<string, { permission: string; role_name: string }>
}

/** A new commit at the tip of `branch` (main by default); its sha is made up. */
export function commitTo(
  store: HistoryStore,
  repo: string,
  commit: Omit<FakeCommit, 'sha'>,
  branch = 'main'
): FakeCommit {
  const sha = (++store.numbers.commit).toString(16).padStart(8, '0').repeat(5)
  const key = `${repo}:${branch}`
  const parent = store.branches.get(key)?.at(-1)
  const made = { ...commit, sha, ...(parent ? { parent } : {}) }
  store.commits.set(sha, made)
  store.branches.set(key, [...(store.branches.get(key) ?? []), sha])
  return made
}

/** Merges a pull request into its base: a squash commit titled after it, which GitHub links to it. */
export function mergePull(store: HistoryStore, repo: string, pull: FakePull): FakeCommit {
  const commit = commitTo(
    store,
    repo,
    {
      message: `${pull.title ?? `Change ${pull.number}`} (#${pull.number})`,
      files: pull.files,
      pulls: [pull.number],
      author: { login: pull.user?.login ?? 'alice', bot: pull.user?.type === 'Bot' },
      ...(pull.mergedAt === undefined ? {} : { committedAt: pull.mergedAt })
    },
    pull.base ?? 'main'
  )
  Object.assign(pull, { merged: true, state: 'closed', mergeCommit: commit.sha })
  store.pulls.set(`${repo}#${pull.number}`, pull)
  return commit
}

/**
 * Renames a repository as GitHub does: its branches, pull requests and number go with it, and
 * its old name redirects (REST: 301 to `/repositories/:id/…`, 307 for other methods than GET;
 * GraphQL's `repository` follows it unless `followRenames: false`).
 */
export function rename(store: HistoryStore, from: string, to: string): void {
  const id = repositoryId(store, from)
  store.repositoryIds.set(to, id)
  store.repositoryIds.delete(from)
  for (const [key, shas] of [...store.branches])
    if (key.startsWith(`${from}:`)) {
      store.branches.delete(key)
      store.branches.set(`${to}:${key.slice(from.length + 1)}`, shas)
    }
  for (const [key, pull] of [...store.pulls])
    if (key.startsWith(`${from}#`)) {
      store.pulls.delete(key)
      store.pulls.set(`${to}#${key.slice(from.length + 1)}`, pull)
    }
  store.renamed.set(from, to)
  store.renamed.delete(to)
}

/**
 * Where a request for `route` goes once repositories were renamed: an old name's is moved (GitHub
 * redirects it to the repository by its number, `/repositories/:id/…`), and a route by number is
 * the route under the repository's name now. Other routes stay as they are.
 */
export function followRename(
  store: HistoryStore,
  route: string
): { moved: string } | { route: string } {
  const old = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(route)
  if (old?.[1] && store.renamed.has(old[1]))
    return {
      moved: `/repositories/${repositoryId(store, currentName(store, old[1]))}${old[2] ?? ''}`
    }
  const byId = /^\/repositories\/(\d+)(\/.*)?$/.exec(route)
  const named =
    byId &&
    [...store.repositoryIds].find(
      ([name, id]) => id === Number(byId[1]) && !store.renamed.has(name)
    )?.[0]
  return { route: named ? `/repos/${named}${byId?.[2] ?? ''}` : route }
}

/**
 * A commit pushed to a pull request's branch (a follow-up of the agent, say), as GitHub records
 * it. With the base branch's protection "Dismiss stale pull request approvals when new commits
 * are pushed" (`dismissStale`), every approval turns DISMISSED and the timeline says so.
 */
export function pushToPull(
  store: HistoryStore,
  repo: string,
  number: number,
  commit: FakeTimelineItem,
  dismissStale = false
): void {
  const pull = store.pulls.get(`${repo}#${number}`)
  if (!pull) throw new Error(`no pull request ${repo}#${number}`)
  const timeline = (pull.timeline ??= [])
  timeline.push({ ...commit, kind: 'commit' })
  if (!dismissStale) return
  for (const review of timeline)
    if (review.kind === 'review' && review.state === 'APPROVED') {
      review.state = 'DISMISSED'
      timeline.push({ ...commit, kind: 'review-dismissed', state: 'APPROVED' })
    }
}

/** `login` removes a label from a pull request, as GitHub records it (an UnlabeledEvent). */
export function unlabel(
  store: HistoryStore,
  repo: string,
  number: number,
  label: string,
  login: string,
  at: number
): void {
  const pull = store.pulls.get(`${repo}#${number}`)
  if (!pull) throw new Error(`no pull request ${repo}#${number}`)
  pull.labels = (pull.labels ?? []).filter(l => l.toLowerCase() !== label.toLowerCase())
  ;(pull.timeline ??= []).push({ kind: 'unlabel', login, label, at })
}

/**
 * The routes that change a pull request: update it (close, reopen, retitle) and ask for reviewers.
 * An answer, `null` when a failure was sent, or undefined when the route is another.
 */
export async function pullWriteRoute(
  store: HistoryStore,
  method: string,
  route: string,
  body: unknown,
  fail: (name: string) => Promise<boolean>
): Promise<{ status: number; body: unknown } | null | undefined> {
  let m: RegExpExecArray | null
  if ((m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/.exec(route)) && method === 'PATCH') {
    if (await fail('update-pull')) return null
    const pull = store.pulls.get(`${m[1]}#${m[2]}`)
    if (!pull) return { status: 404, body: { message: 'Not Found' } }
    const change = (body ?? {}) as { state?: unknown; title?: unknown }
    // A merged pull request stays merged: closing it again changes nothing.
    if ((change.state === 'closed' || change.state === 'open') && !pull.merged) {
      pull.state = change.state
      pull.closedAt = change.state === 'closed' ? Date.now() : undefined
    }
    if (typeof change.title === 'string') pull.title = change.title
    return { status: 200, body: pullView(store, m[1] as string, pull.number) }
  }
  if (
    (m = /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/requested_reviewers$/.exec(route)) &&
    method === 'POST'
  ) {
    if (await fail('request-reviewers')) return null
    const pull = store.pulls.get(`${m[1]}#${m[2]}`)
    if (!pull) return { status: 404, body: { message: 'Not Found' } }
    const reviewers = ((body ?? {}) as { reviewers?: unknown }).reviewers
    const logins = Array.isArray(reviewers) ? reviewers.map(String) : []
    // As GitHub: the whole request is refused when one of them is not a collaborator.
    const outsider = logins.find(l => (store.permissions.get(l)?.permission ?? 'none') === 'none')
    if (outsider || logins.includes(pull.user?.login ?? ''))
      return {
        status: 422,
        body: {
          message:
            'Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the repository.'
        }
      }
    pull.requestedReviewers = [...new Set([...(pull.requestedReviewers ?? []), ...logins])]
    return { status: 201, body: pullView(store, m[1] as string, pull.number) }
  }
  return undefined
}
