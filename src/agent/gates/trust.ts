import { CancelledError, InputError } from '../../runner/errors.js'
import { type GitHubApi, describeGitHubError } from '../../github/api.js'
import { type RunEvent, botName } from '../../github/event.js'
import { hasPermission } from '../../github/permission.js'
import type { TriggerSettings } from '../settings.js'
import { type Gate, PASS } from './gate.js'

/** What the trust gate reads: who triggered the run, and GitHub to ask for their permission. */
export interface TrustInput {
  event: Pick<RunEvent, 'actor' | 'actorIsBot'>
  settings: Pick<TriggerSettings, 'requiredPermission' | 'allowedBots'>
  github: () => Promise<Pick<GitHubApi, 'permission'>>
  signal?: AbortSignal
}

/**
 * `required-permission` and `allowed-bots`: who may start the agent (a label, a comment, a review,
 * a tick, an open pull request), read from the GitHub API, never from `author_association`. Fails
 * closed when the permission cannot be read.
 */
export const trust: Gate<TrustInput> = {
  name: 'required-permission',
  says: 'the person who triggered the run has `required-permission` on the repository (read from the API), or is a bot `allowed-bots` lists; otherwise the run is skipped, saying who and what they have',
  async check(input) {
    const why = await trustRefusal(input)
    return why === undefined ? PASS : { kind: 'skip', why }
  }
}

/** Why the person who triggered the run may not, or undefined: the gate's reason, for callers that need only it. */
export async function trustRefusal({
  event,
  settings,
  github,
  signal
}: TrustInput): Promise<string | undefined> {
  const actor = event.actor
  if (!actor) return 'The event does not say who triggered it.'
  if (event.actorIsBot) {
    if (botAllowed(actor, settings.allowedBots)) return undefined
    return `@${actor} is a bot, and 'allowed-bots' does not list it.`
  }
  const required = settings.requiredPermission
  if (required === 'none') return undefined
  let level: { permission?: string; roleName?: string }
  try {
    level = await (await github()).permission(actor)
  } catch (error) {
    if (signal?.aborted) throw new CancelledError('Cancelled while checking the permission.')
    // An input that cannot be used (an unexpanded token) is the workflow's mistake, not a refusal.
    if (error instanceof InputError) throw error
    return `Could not read @${actor}'s permission on the repository (${describeGitHubError(error)}), so the run is refused.`
  }
  if (hasPermission(level.permission, level.roleName, required)) return undefined
  return `@${actor} has '${level.roleName ?? level.permission ?? 'no'}' permission on the repository; 'required-permission' asks for '${required}'.`
}

/** Whether `allowed-bots` (lower case, without `[bot]`) lists this bot login. */
export function botAllowed(login: string, allowed: ReadonlySet<string>): boolean {
  return allowed.has(botName(login))
}
