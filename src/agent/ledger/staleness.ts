import { botName } from '../../github/event.js'
import { type ActivityEvent, MAX_ACTIVITY, type PullActivity } from '../../github/pull-activity.js'

/**
 * Whether the agent's docs pull request is stale for `expire-after`: stale means nobody but the
 * agent touched it. A person's work on it (a commit, a push, an approval, a request for changes,
 * either of them dismissed since, the keep label) keeps it open for good; a person's comment,
 * review, label added or removed keeps it while younger than `expire-after`.
 */
export type Staleness =
  /** A person's work is on it: never closed. */
  | { keep: string }
  /** A person touched it within `expire-after`: not stale yet. */
  | { recent: string }
  /** Nobody but the agent touched it since `since` (its creation, or a person's last touch). */
  | { stale: true; since: number; touched?: string }

export interface StalenessContext {
  /** When the pull request was opened (epoch ms). */
  createdAt: number
  now: number
  afterMs: number
  /** `keep-label`: a pull request with it is never closed. */
  keepLabel: string
  /** Who the agent is beside the pull request's author: see AgentIdentities. */
  agent: AgentIdentities
}

/** Who the agent is on its docs pull request, beside the pull request's author. */
export interface AgentIdentities {
  /**
   * The `docs-token` identity. With it the action only comments (records, reader impact), closes and
   * requests reviewers, so only its comments are the agent's: a maintainer's own token approves and
   * commits as that maintainer, and that is a person's work. A bot's events are nobody's anyway.
   */
  token?: string
  /**
   * The git email the agent commits with, as recorded when its pull request was first read: not
   * the current first commit's, which a person's rebase or squash makes theirs.
   */
  email?: string
}

/**
 * A person's events: not a bot's, not the pull request's author's (the agent opened it), nor a
 * comment by the `docs-token` identity. A commit or push GitHub matched to no account is the agent's
 * when it carries the agent's git email, a person's otherwise.
 */
export function peopleOf(activity: PullActivity, agent: AgentIdentities): ActivityEvent[] {
  const author = botName(activity.author)
  const token = agent.token ? botName(agent.token) : undefined
  const email = agent.email ?? activity.openerEmail
  return activity.events.filter(e => {
    if (e.bot) return false
    if (e.login) {
      const login = botName(e.login)
      return login !== author && !(e.kind === 'comment' && login === token)
    }
    return e.email !== undefined && e.email !== email
  })
}

/** A commit's author, its committer or a force-push by a person: work on the pull request. */
export const isPush = (e: ActivityEvent): boolean => e.kind === 'commit' || e.kind === 'push'

export function judgeStaleness(activity: PullActivity, ctx: StalenessContext): Staleness {
  const keep = ctx.keepLabel.toLowerCase()
  if (keep && activity.labels.some(l => l.toLowerCase() === keep))
    return { keep: `it has the label '${ctx.keepLabel}'` }
  const people = peopleOf(activity, ctx.agent)
  const commit = people.find(isPush)
  if (commit)
    return {
      keep: `${who(commit)} ${commit.kind === 'commit' ? 'pushed a commit' : 'pushed'} to it (${day(commit.at)})`
    }
  // GitHub marks an approval or a request for changes DISMISSED once a later push makes it stale
  // (or someone dismisses it): the person's review was work all the same.
  const review = people.find(e => e.kind === 'review' && e.state !== undefined && WORK[e.state])
  if (review?.state) return { keep: `${who(review)} ${WORK[review.state]} (${day(review.at)})` }
  // What was not read may hold a person's commit or approval: never closed on a guess.
  if (activity.unread)
    return { keep: `it has more events than the ${MAX_ACTIVITY} newest read for expire-after` }
  const last = people.reduce<ActivityEvent | undefined>(
    (a, e) => (!a || e.at > a.at ? e : a),
    undefined
  )
  if (last && ctx.now - last.at <= ctx.afterMs)
    return { recent: `${what(last)} by ${who(last)} on ${day(last.at)}` }
  const since = Math.max(ctx.createdAt, last?.at ?? 0)
  return last && last.at >= ctx.createdAt
    ? { stale: true, since, touched: `${what(last)} by ${who(last)}` }
    : { stale: true, since }
}

/** A login as it may be shown: GitHub's characters only. */
const who = (e: ActivityEvent): string =>
  !e.login
    ? 'a git author GitHub matches to no account'
    : /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/.test(e.login)
      ? `@${e.login}`
      : 'someone'

const WHAT: Record<ActivityEvent['kind'], string> = {
  commit: 'a commit',
  push: 'a push',
  review: 'a review',
  comment: 'a comment',
  label: 'a label',
  unlabel: 'a label removed'
}

/** The reviews that are a person's work on the pull request, and how they are told. */
const WORK: Record<string, string> = {
  APPROVED: 'approved it',
  CHANGES_REQUESTED: 'requested changes on it',
  DISMISSED: 'reviewed it (approved or requested changes; GitHub dismissed the review since)'
}
const what = (e: ActivityEvent): string => WHAT[e.kind]

export const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
