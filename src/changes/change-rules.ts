import { botName } from '../github/event.js'
import type { BatchCommit, BatchPull, ChangeBatch, SkippedChange } from '../agent/batch.js'
import type { PathFilter } from '../policy/path-filter.js'

/** The docs agent's own identities: its changes are never documented again (a loop). */
const AGENT_LOGINS = new Set(['mintlify'])

export interface ChangeRules {
  /** `allowed-bots`: bots whose changes are documented (lower case, without [bot]). */
  allowedBots: ReadonlySet<string>
  skipLabel: string
  paths: PathFilter
  /** The `docs-token`'s own login, when the token can tell it: the agent's pull requests. */
  docsIdentity?: string
  /** Who pushed, on a push: commits without a pull request are judged by it too. */
  pusher?: { login: string; isBot: boolean }
  /** The docs pull requests the agent opened (the ledger's): never documented as changes. */
  docsPulls?: ReadonlySet<string>
}

/**
 * The pull request the batch's job comments on: the event's own when its changes are in the batch
 * (not when a rule left it out, or it waits beyond the run's bounds), or the batch's only one on a
 * run without one (a schedule).
 */
export function ownPull(
  batch: Pick<ChangeBatch, 'pulls'>,
  eventPull: number | undefined
): number | undefined {
  if (eventPull !== undefined)
    return batch.pulls.some(p => p.number === eventPull) ? eventPull : undefined
  return batch.pulls.length === 1 ? batch.pulls[0]?.number : undefined
}

/**
 * Applies the per-change rules to a batch: which pull requests and commits go to the agent, and
 * why the others do not. The loop guard comes first and no input lifts it.
 */
export function applyRules(batch: ChangeBatch, rules: ChangeRules): ChangeBatch {
  const skipped: SkippedChange[] = [...batch.skipped]
  const pulls: BatchPull[] = []
  for (const pull of batch.pulls) {
    const why = pullRefusal(pull, rules)
    if (why)
      skipped.push({
        ref: `#${pull.number}`,
        title: pull.title,
        url: pull.url,
        sha: pull.mergeCommit ?? '',
        why
      })
    else pulls.push({ ...pull, files: pull.files.filter(f => rules.paths.counts(f.path)) })
  }
  const commits: BatchCommit[] = []
  for (const commit of batch.commits) {
    const why = commitRefusal(commit, rules)
    const title = commit.message.split('\n')[0] ?? ''
    if (why) skipped.push({ ref: commit.sha.slice(0, 7), title, sha: commit.sha, why })
    else commits.push({ ...commit, files: commit.files.filter(f => rules.paths.counts(f.path)) })
  }
  return { ...batch, pulls, commits, skipped }
}

/** Why a pull request of the batch is not documented, or undefined. */
export function pullRefusal(
  pull: Pick<BatchPull, 'number' | 'author' | 'authorIsBot' | 'labels' | 'files' | 'filesComplete'>,
  rules: ChangeRules
): string | undefined {
  const loop = loopRefusal(pull.author, rules)
  if (loop) return `#${pull.number} ${loop}`
  if ('url' in pull && rules.docsPulls?.has(String(pull.url)))
    return `#${pull.number} is a docs pull request the agent opened: its changes are never documented again.`
  if (pull.authorIsBot && !rules.allowedBots.has(botName(pull.author)))
    return `#${pull.number} is by @${pull.author}, a bot, and 'allowed-bots' does not list it.`
  const label = rules.skipLabel.toLowerCase()
  if (label && pull.labels.some(l => l.toLowerCase() === label))
    return `#${pull.number} has the label '${rules.skipLabel}' ('skip-label').`
  // With more files than GitHub listed, one not seen could count: such a change is kept.
  if (!rules.paths.all && pull.filesComplete && !pull.files.some(f => rules.paths.counts(f.path)))
    return `#${pull.number} changes no file that 'paths' and 'paths-ignore' count.`
  return undefined
}

function commitRefusal(commit: BatchCommit, rules: ChangeRules): string | undefined {
  const ref = commit.sha.slice(0, 7)
  const loop = loopRefusal(commit.author, rules)
  if (loop) return `${ref} ${loop}`
  if (commit.authorIsBot && !rules.allowedBots.has(botName(commit.author)))
    return `${ref} is by ${commit.author}, a bot, and 'allowed-bots' does not list it.`
  const pusher = rules.pusher
  if (pusher && loopRefusal(pusher.login, rules))
    return `${ref} was pushed by @${pusher.login}, the docs agent itself.`
  if (pusher?.isBot && !rules.allowedBots.has(botName(pusher.login)))
    return `${ref} was pushed by @${pusher.login}, a bot, outside any pull request, and 'allowed-bots' does not list it.`
  // An empty commit (or one GitHub lists no file for) gives the docs nothing to follow.
  if (commit.filesComplete && commit.files.length === 0) return `${ref} changes no file.`
  if (
    !rules.paths.all &&
    commit.filesComplete &&
    !commit.files.some(f => rules.paths.counts(f.path))
  )
    return `${ref} changes no file that 'paths' and 'paths-ignore' count.`
  return undefined
}

function loopRefusal(author: string, rules: ChangeRules): string | undefined {
  const name = botName(author)
  if (AGENT_LOGINS.has(name))
    return `is by @${author}, the docs agent itself: its changes are never documented again.`
  if (rules.docsIdentity && name === botName(rules.docsIdentity))
    return `is by @${author}, the identity of 'docs-token' that the docs agent writes with: never documented again.`
  return undefined
}

/** Changes left to document, counted: pull requests and commits. */
export const batchSize = (batch: Pick<ChangeBatch, 'pulls' | 'commits'>): number =>
  batch.pulls.length + batch.commits.length
