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
  /** The body's edits, newest first (the newest EDITS at least): who made each, and when (epoch ms). */
  edits: { by: string; at: number }[]
  /** The body's last edit, as GitHub names it apart from the list: none when never edited. */
  lastEdit?: { by: string; at: number }
}

/** Issues read with the label, and edits read per issue: GitHub's newest first. */
const LABELLED = 20
const EDITS = 20

const ISSUE_FIELDS = `number title body state url locked createdAt
  author { login }
  lastEditedAt editor { login }
  labels(first: 20) { nodes { name } }
  firstEdits: userContentEdits(first: ${EDITS}) { nodes { editedAt editor { login } } }
  lastEdits: userContentEdits(last: ${EDITS}) { nodes { editedAt editor { login } } }`

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
        edits: edits(node.firstEdits, node.lastEdits),
        ...(lastAt !== undefined ? { lastEdit: { by: login(node.editor), at: lastAt } } : {})
      }
    ]
  })
}

/**
 * The edits of both ends of the list, newest first: GitHub does not document the list's order, and
 * one of its ends holds the newest edits.
 */
function edits(...connections: unknown[]): DashboardIssue['edits'] {
  const seen = new Set<string>()
  return connections
    .flatMap(connection => {
      const nodes = (connection as { nodes?: unknown } | null)?.nodes
      return Array.isArray(nodes) ? nodes : []
    })
    .flatMap(e => {
      const at = time((e as { editedAt?: unknown } | null)?.editedAt)
      const by = login((e as { editor?: unknown } | null)?.editor)
      const key = `${at}/${by}`
      if (at === undefined || seen.has(key)) return []
      seen.add(key)
      return [{ by, at }]
    })
    .sort((a, b) => b.at - a.at)
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
