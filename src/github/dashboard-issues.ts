import { botName } from './event.js'
import type { GraphQL } from './history.js'

/**
 * Finding the issues that may hold the dashboard, with what tells who wrote them: their author and
 * who edited their body when. Labels can be put on any issue and taken off by anyone with triage
 * rights, so the label alone does not find the dashboard: the action's own issues of that title are
 * found too, open or closed, labelled or not.
 */

/** An issue that may be the dashboard, as GraphQL shows it. */
export interface DashboardIssue {
  number: number
  title: string
  body: string
  state: 'open' | 'closed'
  url: string
  labels: string[]
  locked: boolean
  /** The author's login ('' for a deleted account); a bot's without `[bot]`. */
  author: string
  createdAt: number
  /**
   * The body's newest edits, newest first, with none left out between them: all of them, or the
   * newest EDITS at least. Who made each, and when (epoch ms).
   */
  edits: BodyEdit[]
  /**
   * Edits older than those in `edits` exist and were not read: where to read on (GitHub's cursor,
   * from the newest end of the list; none when GitHub gave none).
   */
  olderEdits?: { cursor?: string; newestFirst: boolean }
  /** The body's last edit, as GitHub names it apart from the list: none when never edited. */
  lastEdit?: BodyEdit
}

export interface BodyEdit {
  by: string
  /** The editor is a GitHub App's bot (GITHUB_TOKEN's `github-actions` too), not a person. */
  bot?: boolean
  at: number
}

const editor = (actor: unknown): Pick<BodyEdit, 'by' | 'bot'> => ({
  by: login(actor),
  bot: (actor as { __typename?: unknown } | null)?.__typename === 'Bot'
})

/** Issues read with the label, and edits read per issue at each end of the list. */
const LABELLED = 20
const EDITS = 20
/** Edits read per request when the newest EDITS are not enough, and how many such requests. */
const EDITS_PAGE = 100
const EDIT_PAGES = 5
/** The most edits ever read of one issue, from its newest: beyond, the action's last write is unknown. */
export const MOST_EDITS_READ = EDITS + EDITS_PAGE * EDIT_PAGES

const EDIT_NODES = 'nodes { editedAt editor { __typename login } }'
const ISSUE_FIELDS = `number title body state url locked createdAt
  author { login }
  lastEditedAt editor { __typename login }
  labels(first: 20) { nodes { name } }
  firstEdits: userContentEdits(first: ${EDITS}) { totalCount pageInfo { hasNextPage endCursor } ${EDIT_NODES} }
  lastEdits: userContentEdits(last: ${EDITS}) { totalCount pageInfo { hasPreviousPage startCursor } ${EDIT_NODES} }`

/** The next edits from the newest end of the list: after the cursor when GitHub lists them newest first. */
const OLDER_EDITS = (
  newestFirst: boolean
): string => `query($owner: String!, $name: String!, $number: Int!, $cursor: String!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) {
      userContentEdits(${newestFirst ? `first: ${EDITS_PAGE}, after: $cursor` : `last: ${EDITS_PAGE}, before: $cursor`}) {
        pageInfo { hasNextPage endCursor hasPreviousPage startCursor } ${EDIT_NODES}
      }
    }
  }
}`

const LABELLED_QUERY = `query($owner: String!, $name: String!, $label: String!) {
  viewer { login }
  repository(owner: $owner, name: $name) {
    issues(labels: [$label], first: ${LABELLED}, states: [OPEN, CLOSED], orderBy: { field: UPDATED_AT, direction: DESC }) {
      nodes { ${ISSUE_FIELDS} }
    }
  }
}`

const TITLE_QUERY = `query($search: String!) {
  search(query: $search, type: ISSUE, first: ${LABELLED}) {
    nodes { ... on Issue { ${ISSUE_FIELDS} } }
  }
}`

/**
 * The issues with the dashboard's label (open and closed, most recently updated first) and who the
 * token is (the action's identity): one request.
 */
export async function labelledIssues(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  label: string
): Promise<{ viewer?: string; issues: DashboardIssue[] }> {
  const data = (await graphql(LABELLED_QUERY, {
    owner: where.owner,
    name: where.repo,
    label
  })) as { viewer?: { login?: unknown }; repository?: { issues?: { nodes?: unknown } } }
  const viewer = typeof data?.viewer?.login === 'string' ? data.viewer.login : undefined
  return { ...(viewer ? { viewer } : {}), issues: issueNodes(data?.repository?.issues?.nodes) }
}

/**
 * The issues of this title that `author` opened, open or closed, labelled or not: where a dashboard
 * whose label was taken off is found again. One request (GitHub's issue search).
 */
export async function authoredIssues(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  title: string,
  author: string
): Promise<DashboardIssue[]> {
  // A bot is searched for as `app/NAME`; the title is quoted, its own quotes dropped.
  const who = author.endsWith('[bot]') ? `app/${botName(author)}` : author
  const search = `repo:${where.owner}/${where.repo} is:issue in:title "${title.replace(/"/g, ' ')}" author:${who}`
  const data = (await graphql(TITLE_QUERY, { search })) as { search?: { nodes?: unknown } }
  return issueNodes(data?.search?.nodes).filter(
    i => i.title === title && sameActor(i.author, author)
  )
}

/** Two logins name the same account: GraphQL names a bot without `[bot]`, REST with it. */
export const sameActor = (a: string, b: string): boolean =>
  a !== '' && botName(a).toLowerCase() === botName(b).toLowerCase()

function issueNodes(nodes: unknown): DashboardIssue[] {
  if (!Array.isArray(nodes)) return []
  return nodes.flatMap((n): DashboardIssue[] => {
    const node = n as Record<string, unknown> | null
    if (!node || typeof node.number !== 'number' || typeof node.body !== 'string') return []
    const lastAt = time(node.lastEditedAt)
    return [
      {
        number: node.number,
        title: typeof node.title === 'string' ? node.title : '',
        body: node.body,
        state: node.state === 'OPEN' ? 'open' : 'closed',
        url: typeof node.url === 'string' ? node.url : '',
        labels: names(node.labels),
        locked: node.locked === true,
        author: login(node.author),
        createdAt: time(node.createdAt) ?? 0,
        ...edits(node.firstEdits, node.lastEdits),
        ...(lastAt !== undefined ? { lastEdit: { ...editor(node.editor), at: lastAt } } : {})
      }
    ]
  })
}

/**
 * The newest edits, newest first, from both ends of the list: GitHub documents no order, so the end
 * holding the newest edit is the newest end. When the two ends hold the whole list, all of it;
 * otherwise the newest end's, with where to read on.
 */
function edits(first: unknown, last: unknown): Pick<DashboardIssue, 'edits' | 'olderEdits'> {
  const head = editNodes(first)
  const tail = editNodes(last)
  const total = (first as { totalCount?: unknown } | null)?.totalCount
  const newestFirst = newestAt(head) >= newestAt(tail)
  // Without a count (not GitHub's answer), a list shorter than asked for is the whole list.
  const whole = typeof total === 'number' ? head.length + tail.length >= total : head.length < EDITS
  if (whole) {
    // The ends overlap: what the tail repeats of the head is left out once.
    const all =
      typeof total === 'number' && head.length < total
        ? [...head, ...tail.slice(head.length + tail.length - total)]
        : head
    return { edits: newestFirstOrder(all) }
  }
  const info = (newestFirst ? first : last) as { pageInfo?: Record<string, unknown> } | null
  const cursor = info?.pageInfo?.[newestFirst ? 'endCursor' : 'startCursor']
  return {
    edits: newestFirstOrder(newestFirst ? head : tail),
    olderEdits: { ...(typeof cursor === 'string' ? { cursor } : {}), newestFirst }
  }
}

/**
 * Reads more of an issue's edits, from the newest end on, until one `enough` is found or the list
 * ends, EDIT_PAGES requests at most: the issue with those edits added.
 */
export async function withOlderEdits(
  graphql: GraphQL,
  where: { owner: string; repo: string },
  issue: DashboardIssue,
  enough: (edit: BodyEdit) => boolean
): Promise<DashboardIssue> {
  let read = issue
  for (let page = 0; page < EDIT_PAGES && read.olderEdits?.cursor !== undefined; page++) {
    const { cursor, newestFirst } = read.olderEdits
    const data = (await graphql(OLDER_EDITS(newestFirst), {
      owner: where.owner,
      name: where.repo,
      number: issue.number,
      cursor
    })) as { repository?: { issue?: { userContentEdits?: unknown } } }
    const connection = data?.repository?.issue?.userContentEdits as {
      pageInfo?: Record<string, unknown>
    } | null
    const found = newestFirstOrder(editNodes(connection))
    const next = connection?.pageInfo?.[newestFirst ? 'endCursor' : 'startCursor']
    const more = connection?.pageInfo?.[newestFirst ? 'hasNextPage' : 'hasPreviousPage']
    const { olderEdits: _read, ...rest } = read
    read = {
      ...rest,
      edits: [...read.edits, ...found],
      ...(more === true && typeof next === 'string' && found.length > 0
        ? { olderEdits: { cursor: next, newestFirst } }
        : {})
    }
    if (found.some(enough)) break
  }
  return read
}

function editNodes(connection: unknown): BodyEdit[] {
  const nodes = (connection as { nodes?: unknown } | null)?.nodes
  return (Array.isArray(nodes) ? nodes : []).flatMap(e => {
    const at = time((e as { editedAt?: unknown } | null)?.editedAt)
    return at === undefined ? [] : [{ ...editor((e as { editor?: unknown } | null)?.editor), at }]
  })
}

const newestAt = (edits: BodyEdit[]): number => Math.max(-Infinity, ...edits.map(e => e.at))

/** Newest first; edits of one second keep GitHub's order among them, reversed when it lists oldest first. */
const newestFirstOrder = (edits: BodyEdit[]): BodyEdit[] => {
  const ordered = newestAt(edits) === edits[0]?.at ? [...edits] : [...edits].reverse()
  return ordered.sort((a, b) => b.at - a.at)
}

function names(connection: unknown): string[] {
  const nodes = (connection as { nodes?: unknown } | null)?.nodes
  return Array.isArray(nodes)
    ? nodes.flatMap(l => {
        const name = (l as { name?: unknown } | null)?.name
        return typeof name === 'string' ? [name] : []
      })
    : []
}

const login = (actor: unknown): string => {
  const value = (actor as { login?: unknown } | null)?.login
  return typeof value === 'string' ? value : ''
}

const time = (value: unknown): number | undefined => {
  const at = typeof value === 'string' ? Date.parse(value) : NaN
  return Number.isFinite(at) ? at : undefined
}
