import { isBot } from './event.js'
import type { GraphQL } from './history.js'

/**
 * What happened on a pull request, as its timeline shows it: its commits, reviews, comments and
 * labels added or removed, each with who and when, read in one GraphQL request. Who counts as a person is for the
 * reader to decide (expiry knows the agent's identities); this only reads.
 */
export interface PullActivity {
  /** The pull request's author's login. */
  author: string
  draft: boolean
  /** Its labels now. */
  labels: string[]
  /**
   * The git email of its first commit's author as read now: the identity its opener commits with,
   * until someone rebases or squashes it (the reader keeps the first one it saw).
   */
  openerEmail?: string
  /** The newest MAX_ACTIVITY events of the kinds below, oldest first. */
  events: ActivityEvent[]
  /** Events older than those read: more than MAX_ACTIVITY happened. */
  unread: number
}

export interface ActivityEvent {
  /**
   * `commit`: a commit's author. `push`: whoever else put a commit on the branch, its committer when
   * not its author (a commit authored as someone else, a rebase, a squash), or a force-push's actor.
   * `unlabel`: a label removed.
   */
  kind: 'commit' | 'push' | 'review' | 'comment' | 'label' | 'unlabel'
  /** When (epoch ms): committed, pushed, submitted, written, labelled. */
  at: number
  /** The GitHub account, when GitHub knows one (a commit's git email may match none). */
  login?: string
  /** A bot account, or a bot's git email (`…[bot]@users.noreply.github.com`). */
  bot: boolean
  /** A commit's (author's or committer's) git email. */
  email?: string
  /** A review's state: APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED. */
  state?: string
  /** A label added or removed. */
  label?: string
}

/** Timeline events read at most: one page, GitHub's limit. */
export const MAX_ACTIVITY = 100

const ACTOR = 'login __typename'
const GIT_ACTOR = 'email user { login }'
const ACTIVITY_QUERY = `query($owner: String!, $name: String!, $number: Int!, $last: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      author { ${ACTOR} }
      isDraft
      labels(first: 100) { nodes { name } }
      commits(first: 1) { nodes { commit { author { email } } } }
      timelineItems(last: $last, itemTypes: [PULL_REQUEST_COMMIT, HEAD_REF_FORCE_PUSHED_EVENT, PULL_REQUEST_REVIEW, ISSUE_COMMENT, LABELED_EVENT, UNLABELED_EVENT]) {
        totalCount
        nodes {
          __typename
          ... on PullRequestCommit { commit { committedDate author { ${GIT_ACTOR} } committer { ${GIT_ACTOR} } } }
          ... on HeadRefForcePushedEvent { createdAt actor { ${ACTOR} } }
          ... on PullRequestReview { state submittedAt author { ${ACTOR} } }
          ... on IssueComment { createdAt author { ${ACTOR} } }
          ... on LabeledEvent { createdAt actor { ${ACTOR} } label { name } }
          ... on UnlabeledEvent { createdAt actor { ${ACTOR} } label { name } }
        }
      }
    }
  }
}`

type Node = Record<string, unknown>
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined)
const obj = (v: unknown): Node => (v && typeof v === 'object' ? (v as Node) : {})
const time = (v: unknown): number => {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN
  return Number.isFinite(ms) ? ms : 0
}

/** The pull request's activity: one request. Throws when GitHub knows no such pull request. */
export async function readPullActivity(
  graphql: GraphQL,
  where: { owner: string; repo: string; number: number }
): Promise<PullActivity> {
  const data = obj(
    await graphql(ACTIVITY_QUERY, {
      owner: where.owner,
      name: where.repo,
      number: where.number,
      last: MAX_ACTIVITY
    })
  )
  const pull = obj(obj(data.repository).pullRequest)
  const timeline = obj(pull.timelineItems)
  if (!Array.isArray(timeline.nodes))
    throw new Error(`GitHub answered without the timeline of pull request #${where.number}`)
  const first = obj(list(obj(pull.commits).nodes)[0])
  const events = list(timeline.nodes).flatMap(eventOf)
  const total = typeof timeline.totalCount === 'number' ? timeline.totalCount : events.length
  return {
    author: str(obj(pull.author).login) ?? '',
    draft: pull.isDraft === true,
    labels: list(obj(pull.labels).nodes).flatMap(l => str(obj(l).name) ?? []),
    openerEmail: str(obj(obj(first.commit).author).email)?.toLowerCase(),
    events,
    unread: Math.max(0, total - timeline.nodes.length)
  }
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** An actor as the event shows it: its login and whether it is a bot. */
function actor(v: unknown): { login?: string; bot: boolean } {
  const a = obj(v)
  const login = str(a.login)
  return { login, bot: isBot(login ?? '', a.__typename) }
}

/** A commit's author or committer: its GitHub account when matched, its git email, whether a bot. */
function gitActor(v: unknown): { login?: string; email?: string; bot: boolean } {
  const a = obj(v)
  const email = str(a.email)?.toLowerCase()
  const login = str(obj(a.user).login)
  return { login, email, bot: isBot(login ?? '', undefined) || /\[bot\]@/.test(email ?? '') }
}

const sameGitActor = (a: { login?: string; email?: string }, b: typeof a): boolean =>
  a.login && b.login ? a.login.toLowerCase() === b.login.toLowerCase() : a.email === b.email

/** GitHub's own committer identity: web edits and merges made on github.com. */
const isGitHubItself = (c: { login?: string; email?: string }): boolean =>
  c.email === 'noreply@github.com' || c.login === 'web-flow'

/** An event a GitHub account did (not a git identity), at a time GitHub gives as text. */
function byActor(
  kind: ActivityEvent['kind'],
  at: unknown,
  who: unknown,
  more: Pick<ActivityEvent, 'state' | 'label'> = {}
): ActivityEvent {
  return { kind, at: time(at), ...actor(who), ...more }
}

function eventOf(raw: unknown): ActivityEvent[] {
  const node = obj(raw)
  switch (node.__typename) {
    case 'PullRequestCommit': {
      const commit = obj(node.commit)
      const at = time(commit.committedDate)
      const author = gitActor(commit.author)
      const committer = gitActor(commit.committer)
      const events: ActivityEvent[] = [{ kind: 'commit', at, ...author }]
      // Whoever committed what another authored (a rebase, a squash, a commit written as someone
      // else) pushed to it too; GitHub's own committer (a web edit, a merge) is nobody.
      if (
        (committer.login || committer.email) &&
        !sameGitActor(author, committer) &&
        !isGitHubItself(committer)
      )
        events.push({ kind: 'push', at, ...committer })
      return events
    }
    case 'HeadRefForcePushedEvent':
      return [byActor('push', node.createdAt, node.actor)]
    case 'PullRequestReview':
      return [byActor('review', node.submittedAt, node.author, { state: str(node.state) })]
    case 'IssueComment':
      return [byActor('comment', node.createdAt, node.author)]
    case 'LabeledEvent':
      return [byActor('label', node.createdAt, node.actor, { label: str(obj(node.label).name) })]
    case 'UnlabeledEvent':
      return [byActor('unlabel', node.createdAt, node.actor, { label: str(obj(node.label).name) })]
    default:
      return []
  }
}
