import { isBot } from './event.js'
import type { GraphQL } from './history.js'

/**
 * What happened on a pull request, as its timeline shows it: its commits, reviews, comments and
 * labels, each with who and when, read in one GraphQL request. Who counts as a person is for the
 * reader to decide (expiry knows the agent's identities); this only reads.
 */
export interface PullActivity {
  /** The pull request's author's login. */
  author: string
  draft: boolean
  /** Its labels now. */
  labels: string[]
  /** The git email of its first commit's author: the identity its opener commits with. */
  openerEmail?: string
  /** The newest MAX_ACTIVITY events of the kinds below, oldest first. */
  events: ActivityEvent[]
  /** Events older than those read: more than MAX_ACTIVITY happened. */
  unread: number
}

export interface ActivityEvent {
  kind: 'commit' | 'review' | 'comment' | 'label'
  /** When (epoch ms): committed, submitted, written, labelled. */
  at: number
  /** The GitHub account, when GitHub knows one (a commit's git email may match none). */
  login?: string
  /** A bot account, or a bot's git email (`…[bot]@users.noreply.github.com`). */
  bot: boolean
  /** A commit's git email. */
  email?: string
  /** A review's state: APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED. */
  state?: string
  /** A label added. */
  label?: string
}

/** Timeline events read at most: one page, GitHub's limit. */
export const MAX_ACTIVITY = 100

const ACTOR = 'login __typename'
const ACTIVITY_QUERY = `query($owner: String!, $name: String!, $number: Int!, $last: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      author { ${ACTOR} }
      isDraft
      labels(first: 100) { nodes { name } }
      commits(first: 1) { nodes { commit { author { email } } } }
      timelineItems(last: $last, itemTypes: [PULL_REQUEST_COMMIT, PULL_REQUEST_REVIEW, ISSUE_COMMENT, LABELED_EVENT]) {
        totalCount
        nodes {
          __typename
          ... on PullRequestCommit { commit { committedDate author { email user { login } } } }
          ... on PullRequestReview { state submittedAt author { ${ACTOR} } }
          ... on IssueComment { createdAt author { ${ACTOR} } }
          ... on LabeledEvent { createdAt actor { ${ACTOR} } label { name } }
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

function eventOf(raw: unknown): ActivityEvent[] {
  const node = obj(raw)
  switch (node.__typename) {
    case 'PullRequestCommit': {
      const commit = obj(node.commit)
      const author = obj(commit.author)
      const email = str(author.email)?.toLowerCase()
      const login = str(obj(author.user).login)
      const bot = isBot(login ?? '', undefined) || /\[bot\]@/.test(email ?? '')
      return [{ kind: 'commit', at: time(commit.committedDate), login, bot, email }]
    }
    case 'PullRequestReview':
      return [
        {
          kind: 'review',
          at: time(node.submittedAt),
          ...actor(node.author),
          state: str(node.state)
        }
      ]
    case 'IssueComment':
      return [{ kind: 'comment', at: time(node.createdAt), ...actor(node.author) }]
    case 'LabeledEvent':
      return [
        {
          kind: 'label',
          at: time(node.createdAt),
          ...actor(node.actor),
          label: str(obj(node.label).name)
        }
      ]
    default:
      return []
  }
}
