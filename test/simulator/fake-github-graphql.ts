import { schema as published } from '@octokit/graphql-schema'
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  type IntrospectionQuery,
  buildClientSchema,
  execute,
  parse,
  validate
} from 'graphql'
import { perWorker } from '../support/per-worker.js'
import type { FakeIssue } from './fake-github.js'
import type { ContentStore } from './fake-github-contents.js'
import {
  type ChangeStore,
  type FakeCommit,
  type FakeFile,
  type FakePull,
  type FakeTimelineItem,
  ancestry,
  canSee,
  currentName,
  iso,
  repositoryId,
  repositoryNodeId
} from './fake-github-changes.js'

/**
 * GitHub's GraphQL API for the fake, executed against GitHub's own published schema
 * (@octokit/graphql-schema): a query the real API would refuse (an unknown field, a wrong argument)
 * is refused here too, with GitHub's kind of error, and the answer has the real shape.
 */
// Built once per worker from the introspection result the package publishes (what GitHub's server
// answers about itself), which its import has parsed already: a quarter of the time building it from
// the SDL took, whose text defines two fields twice where the server has them once.
const gitHubSchema = (): GraphQLSchema =>
  perWorker('github-graphql-schema', () =>
    buildClientSchema(published.json as unknown as IntrospectionQuery, { assumeValid: true })
  )

/**
 * A query parsed and checked against the schema, or GitHub's refusal of it: once per query text and
 * worker, as a run sends the same few queries again and again (checking one against GitHub's
 * schema takes longer than answering it).
 */
function checkedQuery(query: string): { document: DocumentNode } | { errors: GraphQLError[] } {
  const checked = perWorker(
    'github-graphql-queries',
    () => new Map<string, { document: DocumentNode } | { errors: GraphQLError[] }>()
  )
  let found = checked.get(query)
  if (!found) {
    try {
      const document = parse(query)
      const errors = validate(gitHubSchema(), document)
      found = errors.length ? { errors: [...errors] } : { document }
    } catch (error) {
      found = { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] }
    }
    checked.set(query, found)
  }
  return found
}

export interface GraphQLRequest {
  query: string
  variables?: Record<string, unknown>
}

/** Answers one GraphQL request over the fake's repositories, as GitHub does: 200 with data and errors. */
export async function answerGraphQL(
  store: ChangeStore & Pick<ContentStore, 'trees' | 'texts'>,
  request: GraphQLRequest,
  viewer: { login: string; databaseId: number },
  issues: ReadonlyMap<number, FakeIssue> = new Map(),
  token = '',
  /** What GitHub's search has indexed: issues opened and pull requests merged before then (ms). */
  indexedBefore = Infinity
): Promise<{ data?: unknown; errors?: { message: string }[] }> {
  const checked = checkedQuery(request.query)
  const result: ExecutionResult =
    'errors' in checked
      ? { errors: checked.errors }
      : await execute({
          schema: gitHubSchema(),
          document: checked.document,
          variableValues: request.variables,
          rootValue: {
            viewer,
            repository: ({
              owner,
              name,
              followRenames
            }: {
              owner: string
              name: string
              followRenames?: boolean
            }) => {
              // GitHub follows a renamed repository's old name unless told not to.
              const asked = `${owner}/${name}`
              const repo = followRenames === false ? asked : currentName(store, asked)
              // As GitHub answers a repository the token cannot see: null, and an error of type NOT_FOUND.
              if (
                !canSee(store, repo, token) ||
                (followRenames === false && store.renamed.has(asked))
              )
                throw Object.assign(
                  new Error(`Could not resolve to a Repository with the name '${owner}/${name}'.`),
                  { type: 'NOT_FOUND' }
                )
              const id = repositoryId(store, repo)
              return {
                ...repositoryNode(store, repo),
                id: repositoryNodeId(id),
                databaseId: id,
                nameWithOwner: repo,
                issues: (args: IssuesArgs) => ({
                  nodes: listIssues(issues, args).map(i => issueNode(i, `${owner}/${name}`))
                }),
                issue: ({ number }: { number: number }) => {
                  const issue = issues.get(number)
                  return issue ? issueNode(issue, `${owner}/${name}`) : null
                }
              }
            },
            search: ({ query, first }: { query: string; first: number }) => {
              if (/\bis:pr\b/.test(query)) {
                const found = searchPulls(store, query, indexedBefore)
                return {
                  issueCount: found.length,
                  nodes: found.slice(0, first).map(([repo, p]) => ({
                    __typename: 'PullRequest',
                    ...pullNode(store, repo, p)
                  }))
                }
              }
              const found = searchIssues(issues, query).filter(
                i => (i.createdAt ?? 0) <= indexedBefore
              )
              return {
                issueCount: found.length,
                nodes: found
                  .slice(0, first)
                  .map(i => ({ __typename: 'Issue', ...issueNode(i, 'acme/app') }))
              }
            }
          }
        })
  return {
    ...(result.data ? { data: result.data } : {}),
    ...(result.errors
      ? {
          errors: result.errors.map(e => {
            const type = (e.originalError as { type?: unknown } | undefined)?.type
            return {
              message: e.message,
              ...(typeof type === 'string' ? { type, path: e.path } : {})
            }
          })
        }
      : {})
  }
}

interface IssuesArgs {
  labels?: string[]
  first: number
  states?: string[]
  orderBy?: { field: string; direction: string }
}

/** The dashboard's issues query: by label and state, most recently updated first (as asked). */
function listIssues(issues: ReadonlyMap<number, FakeIssue>, args: IssuesArgs): FakeIssue[] {
  if (args.orderBy && (args.orderBy.field !== 'UPDATED_AT' || args.orderBy.direction !== 'DESC'))
    throw new Error('the fake orders issues by UPDATED_AT DESC only')
  return [...issues.values()]
    .filter(
      i =>
        (!args.labels || args.labels.every(l => i.labels.includes(l))) &&
        (!args.states || args.states.includes(i.state.toUpperCase()))
    )
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, args.first)
}

/**
 * GitHub's issue search, for the qualifiers the dashboard uses: `is:issue`, `in:title "…"` (words
 * of the title) and `author:` (`app/NAME` for a bot). Newest first.
 */
function searchIssues(issues: ReadonlyMap<number, FakeIssue>, query: string): FakeIssue[] {
  const title = /in:title "([^"]*)"/.exec(query)?.[1] ?? ''
  const author = /author:(\S+)/.exec(query)?.[1]
  const words = title.toLowerCase().split(/\s+/).filter(Boolean)
  return [...issues.values()]
    .filter(i => words.every(w => i.title.toLowerCase().includes(w)))
    .filter(i => {
      if (!author) return true
      const bot = author.startsWith('app/')
      const login = i.user.login.replace(/\[bot\]$/, '')
      return bot ? i.user.type === 'Bot' && login === author.slice(4) : i.user.login === author
    })
    .sort((a, b) => b.number - a.number)
}

/**
 * GitHub's search for pull requests, for the qualifiers the gaps sub-action uses: `repo:`,
 * `is:merged`, `merged:>=` (an ISO date or time) and `sort:created-desc`.
 */
function searchPulls(
  store: ChangeStore,
  query: string,
  indexedBefore: number
): [string, FakePull][] {
  const repo = /\brepo:(\S+)/.exec(query)?.[1] ?? ''
  const from = /\bmerged:>=(\S+)/.exec(query)?.[1]
  const since = from ? Date.parse(from) : -Infinity
  if (!/\bsort:created-desc\b/.test(query))
    throw new Error('the fake sorts pull requests by creation only')
  return [...store.pulls]
    .filter(([key]) => key.startsWith(`${repo}#`))
    .map(([, p]): [string, FakePull] => [repo, p])
    .filter(([, p]) => !/\bis:merged\b/.test(query) || stateOf(p) === 'MERGED')
    .filter(([, p]) => (p.mergedAt ?? 0) >= since && (p.mergedAt ?? 0) <= indexedBefore)
    .sort(([, a], [, b]) => (b.createdAt ?? 0) - (a.createdAt ?? 0) || b.number - a.number)
}

/** An issue as GraphQL shows it: a bot's login without `[bot]`, edits newest first. */
function issueNode(issue: FakeIssue, repo: string): Record<string, unknown> {
  const actor = (login: string) => ({
    __typename: login.endsWith('[bot]') ? 'Bot' : 'User',
    login: login.replace(/\[bot\]$/, '')
  })
  const edits = [...(issue.edits ?? [])].reverse()
  const last = edits[0]
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state.toUpperCase(),
    url: `https://github.com/${repo}/issues/${issue.number}`,
    locked: issue.locked ?? false,
    createdAt: iso(issue.createdAt) ?? '2026-11-20T10:00:00Z',
    author: actor(issue.user.login),
    lastEditedAt: last ? iso(last.at) : null,
    editor: last ? actor(last.by) : null,
    labels: ({ first }: { first: number }) => ({
      nodes: issue.labels.slice(0, first).map(name => ({ name }))
    }),
    // Newest first here; the action reads both ends, as GitHub documents no order.
    userContentEdits: (args: PageArgs) =>
      page(edits, args, e => ({ editedAt: iso(e.at), editor: actor(e.by) }))
  }
}

interface PageArgs {
  first?: number | null
  after?: string | null
  last?: number | null
  before?: string | null
}

/**
 * A connection over `all`, as GraphQL's cursor connections page (the Relay rules GitHub follows):
 * `after`/`before` narrow the list, then `first` keeps its start or `last` its end. Cursors are
 * offsets, as opaque to the action as GitHub's; `totalCount` counts the whole list.
 */
function page<T>(
  all: readonly T[],
  { first, after, last, before }: PageArgs,
  node: (item: T) => unknown
): Record<string, unknown> {
  let start = after ? Number(after) + 1 : 0
  let end = before ? Number(before) : all.length
  if (typeof first === 'number') end = Math.min(end, start + first)
  if (typeof last === 'number') start = Math.max(start, end - last)
  const nodes = all.slice(start, end)
  return {
    totalCount: all.length,
    pageInfo: {
      hasNextPage: end < all.length,
      hasPreviousPage: start > 0,
      startCursor: nodes.length ? String(start) : null,
      endCursor: nodes.length ? String(end - 1) : null
    },
    nodes: nodes.map(node)
  }
}

function repositoryNode(
  store: ChangeStore & Pick<ContentStore, 'trees' | 'texts'>,
  repo: string
): Record<string, unknown> | null {
  const main = store.branches.get(`${repo}:main`)
  return {
    // By oid, a commit; by `HEAD:path` (a rev-parse expression), the default branch's file.
    object: ({ oid, expression }: { oid?: string; expression?: string }) =>
      expression === undefined
        ? commitNode(store, repo, oid ?? '')
        : blobNode(store, repo, expression),
    pullRequest: ({ number }: { number: number }) => {
      const pull = store.pulls.get(`${repo}#${number}`)
      return pull ? pullNode(store, repo, pull) : null
    },
    defaultBranchRef: main?.length
      ? { name: 'main', target: commitNode(store, repo, main[main.length - 1] as string) }
      : null,
    // As GitHub documents it: by creation or update time, most recent first (update time unless
    // asked): a bot's label on an old pull request moves it up.
    pullRequests: ({
      states,
      first,
      orderBy
    }: {
      states?: string[]
      first: number
      orderBy?: { field: string }
    }) => ({
      nodes: [...store.pulls]
        .filter(
          ([key, p]) => key.startsWith(`${repo}#`) && (!states || states.includes(stateOf(p)))
        )
        .map(([, p]) => p)
        .sort((a, b) =>
          orderBy?.field === 'CREATED_AT'
            ? (b.createdAt ?? 0) - (a.createdAt ?? 0) || b.number - a.number
            : updatedAt(b) - updatedAt(a) || b.number - a.number
        )
        .slice(0, first)
        .map(p => pullNode(store, repo, p))
    })
  }
}

/**
 * A file of the default branch as GraphQL's Blob: its text (null when binary, as GitHub documents),
 * its size; a folder is a Tree, and no such path null.
 */
function blobNode(
  store: Pick<ContentStore, 'trees' | 'texts'>,
  repo: string,
  expression: string
): Record<string, unknown> | null {
  const m = /^HEAD:(.+)$/.exec(expression)
  if (!m) return null
  const path = m[1] as string
  const files = store.trees.get(repo) ?? []
  if (!files.includes(path))
    return files.some(f => f.startsWith(`${path}/`)) ? { __typename: 'Tree' } : null
  const text = store.texts.get(`${repo}:${path}`) ?? ''
  const binary = text.includes('\u0000')
  return {
    __typename: 'Blob',
    text: binary ? null : text,
    isBinary: binary,
    byteSize: Buffer.byteLength(text),
    isTruncated: false
  }
}

/** When a commit was made, unless it says. */
const DEFAULT_COMMITTED = Date.parse('2026-11-20T10:00:00Z')

function commitNode(store: ChangeStore, repo: string, oid: string): Record<string, unknown> | null {
  const commit = store.commits.get(oid)
  if (!commit) return null
  return {
    __typename: 'Commit',
    oid: commit.sha,
    message: commit.message,
    committedDate: iso(commit.committedAt ?? DEFAULT_COMMITTED),
    url: `https://github.com/${repo}/commit/${commit.sha}`,
    author: {
      name: commit.author?.name ?? commit.author?.login ?? 'Alice',
      user: commit.author?.login && !commit.author.bot ? { login: commit.author.login } : null
    },
    associatedPullRequests: ({ first }: { first: number }) => ({
      nodes: (commit.pulls ?? [])
        .map(n => store.pulls.get(`${repo}#${n}`))
        .filter((p): p is FakePull => p !== undefined)
        .slice(0, first)
        .map(p => pullNode(store, repo, p))
    }),
    // Cursors are offsets into the history, as opaque to the action as GitHub's; `since` keeps
    // the commits made at or after it.
    history: ({
      first,
      after,
      since
    }: {
      first: number
      after?: string | null
      since?: string | null
    }) => {
      const all = historyOf(store, repo, commit).filter(
        c => !since || (c.committedAt ?? DEFAULT_COMMITTED) >= Date.parse(since)
      )
      const from = after ? Number(after) : 0
      return {
        pageInfo: { hasNextPage: from + first < all.length, endCursor: String(from + first) },
        nodes: all.slice(from, from + first).map(c => commitNode(store, repo, c.sha))
      }
    }
  }
}

/** The commit and those before it, newest first (see ancestry). */
const historyOf = (store: ChangeStore, repo: string, commit: FakeCommit): FakeCommit[] =>
  ancestry(store, repo, commit.sha)
    .reverse()
    .map(sha => store.commits.get(sha) as FakeCommit)

const CHANGE_TYPES: Record<string, string> = {
  added: 'ADDED',
  removed: 'DELETED',
  renamed: 'RENAMED',
  copied: 'COPIED',
  changed: 'CHANGED',
  unchanged: 'CHANGED',
  modified: 'MODIFIED'
}

/** When GitHub last saw a change to it: a label or a comment later than its merge moves it. */
const updatedAt = (pull: FakePull): number =>
  pull.updatedAt ?? Math.max(pull.createdAt ?? 0, pull.mergedAt ?? 0, pull.closedAt ?? 0)

const stateOf = (pull: FakePull): string =>
  (pull.merged ?? pull.state !== 'open') ? 'MERGED' : pull.state === 'open' ? 'OPEN' : 'CLOSED'

function pullNode(store: ChangeStore, repo: string, pull: FakePull): Record<string, unknown> {
  const files = pull.files ?? []
  const merged = pull.merged ?? pull.state !== 'open'
  const user = pull.user ?? { login: 'alice', type: 'User' }
  return {
    number: pull.number,
    title: pull.title ?? `Change ${pull.number}`,
    body: pull.body ?? '',
    url: `https://github.com/${repo}/pull/${pull.number}`,
    merged,
    state: stateOf(pull),
    mergedAt: merged ? (iso(pull.mergedAt) ?? '2026-11-20T10:00:00Z') : null,
    baseRefName: pull.base ?? 'main',
    author: actorNode(user.login, user.type === 'Bot'),
    labels: ({ first }: { first: number }) => ({
      nodes: (pull.labels ?? []).slice(0, first).map(name => ({ name }))
    }),
    isDraft: pull.draft ?? false,
    ...timelineOf(store, repo, pull),
    mergeCommit: pull.mergeCommit ? { oid: pull.mergeCommit } : null,
    changedFiles: files.length,
    additions: files.reduce((n, f) => n + (f.additions ?? 1), 0),
    deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0),
    files: ({ first }: { first: number }) => ({
      nodes: files.slice(0, first).map((f: FakeFile) => ({
        path: f.filename,
        additions: f.additions ?? 1,
        deletions: f.deletions ?? 0,
        changeType: CHANGE_TYPES[f.status ?? 'modified']
      }))
    })
  }
}

/** An account as GraphQL's Actor interface shows it. */
const actorNode = (login: string | undefined, bot?: boolean): Record<string, unknown> | null =>
  // GraphQL names a bot (an App) without the `[bot]` REST puts after its login.
  login
    ? { __typename: bot ? 'Bot' : 'User', login: bot ? login.replace(/\[bot\]$/, '') : login }
    : null

/** A commit's git author or committer: its email, and the account GitHub matched it to (never a bot's). */
function gitActor(
  item: Pick<FakeTimelineItem, 'login' | 'bot' | 'email'>
): Record<string, unknown> {
  const email =
    item.email ??
    (item.bot
      ? `41898282+${item.login ?? 'bot'}@users.noreply.github.com`
      : `${item.login}@example.com`)
  return { email, user: item.login && !item.bot ? { login: item.login } : null }
}

/** A timeline item as the PullRequestTimelineItems union shows it. */
function timelineNode(item: FakeTimelineItem): { type: string; node: Record<string, unknown> } {
  const at = iso(item.at)
  if (item.kind === 'commit')
    return {
      type: 'PULL_REQUEST_COMMIT',
      node: {
        __typename: 'PullRequestCommit',
        commit: {
          committedDate: at,
          author: gitActor(item),
          committer: gitActor(item.committer ?? item)
        }
      }
    }
  if (item.kind === 'force-push')
    return {
      type: 'HEAD_REF_FORCE_PUSHED_EVENT',
      node: {
        __typename: 'HeadRefForcePushedEvent',
        createdAt: at,
        actor: actorNode(item.login, item.bot)
      }
    }
  if (item.kind === 'review')
    return {
      type: 'PULL_REQUEST_REVIEW',
      node: {
        __typename: 'PullRequestReview',
        state: item.state ?? 'COMMENTED',
        submittedAt: at,
        author: actorNode(item.login, item.bot)
      }
    }
  if (item.kind === 'review-dismissed')
    return {
      type: 'REVIEW_DISMISSED_EVENT',
      node: {
        __typename: 'ReviewDismissedEvent',
        createdAt: at,
        actor: actorNode(item.login, item.bot),
        previousReviewState: item.state ?? 'APPROVED'
      }
    }
  const removed = item.kind === 'unlabel'
  return {
    type: removed ? 'UNLABELED_EVENT' : 'LABELED_EVENT',
    node: {
      __typename: removed ? 'UnlabeledEvent' : 'LabeledEvent',
      createdAt: at,
      actor: actorNode(item.login, item.bot),
      label: { name: item.label ?? '' }
    }
  }
}

/**
 * A pull request's first commit and its timeline: its own commits, reviews and labels with the
 * comments posted on it, oldest first, of the types asked for, the newest `last`.
 */
function timelineOf(store: ChangeStore, repo: string, pull: FakePull): Record<string, unknown> {
  const items = (pull.timeline ?? []).map(item => ({ at: item.at, ...timelineNode(item) }))
  for (const c of store.comments)
    if (c.repo === repo && c.issue === pull.number)
      items.push({
        at: c.at ?? pull.createdAt ?? 0,
        type: 'ISSUE_COMMENT',
        node: {
          __typename: 'IssueComment',
          createdAt: iso(c.at ?? pull.createdAt ?? 0),
          author: actorNode(c.user.login, c.user.type === 'Bot')
        }
      })
  items.sort((a, b) => a.at - b.at)
  const commits = (pull.timeline ?? []).filter(item => item.kind === 'commit')
  return {
    commits: ({ first }: { first: number }) => ({
      nodes: commits.slice(0, first).map(item => ({ commit: { author: gitActor(item) } }))
    }),
    timelineItems: ({ last, itemTypes }: { last: number; itemTypes?: string[] }) => {
      const shown = items.filter(i => !itemTypes || itemTypes.includes(i.type))
      return { totalCount: shown.length, nodes: shown.slice(-last).map(i => i.node) }
    }
  }
}
