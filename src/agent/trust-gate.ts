import { CancelledError, InputError } from '../runner/errors.js'
import { type GitHubApi, describeGitHubError } from '../github/api.js'
import { type RunEvent, botName } from '../github/event.js'
import type { TriggerSettings } from './settings.js'
import { hasPermission } from '../github/permission.js'

/**
 * Who may start the agent from an issue: read from the GitHub API, never from `author_association`.
 * Returns why the run is refused, or undefined to go on. Fails closed when the permission cannot be read.
 */
export async function trustRefusal(
  github: () => Promise<GitHubApi>,
  event: RunEvent,
  settings: Pick<TriggerSettings, 'requiredPermission' | 'allowedBots'>,
  signal?: AbortSignal
): Promise<string | undefined> {
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
