// What `npm start` was asked to do, read from its arguments alone: the environment never decides
// whether a run reaches the real service (MINTLIFY_API_KEY in a shell must not spend credits).

export const USAGE = `Usage: npm start [-- options]

Runs the bundled action (dist/) the way the runner does, against the API simulator and a fake
GitHub on loopback. Nothing leaves this machine unless --live is given.

  (no option)        the main story: the docs-agent label is added to issue #7; the action checks
                     the person's permission, comments, starts a job on the simulator and keeps the
                     comment current. Prints the comment each time it changes, then the final one.
  --prompt "<text>"  a prompt-only run: the action with 'prompt' set, no issue, no comment
  --gaps             the docs-gaps sub-action over the simulator's week of analytics; prints its report
  --live             the real Mintlify service instead of the simulator: it starts a real agent job
                     (paid from your credits) in MINTLIFY_PROJECT_ID, with MINTLIFY_API_KEY
                     (MINTLIFY_API_URL overrides the base URL). GitHub stays the fake one.
  --help, -h         this text`

export type StartMode = 'issue' | 'prompt' | 'gaps'

export interface StartOptions {
  mode: StartMode
  /** The real service: only when --live was given. */
  live: boolean
  /** The prompt of a prompt-only run. */
  prompt: string
  help: boolean
}

/** A mistake in the arguments: the message says which, and the usage follows it. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export const DEFAULT_PROMPT = 'Document the new retry options of the client'

/** Reads the arguments after `npm start --`; throws UsageError on anything it does not know. */
export function parseStartArgs(args: readonly string[]): StartOptions {
  const options: StartOptions = { mode: 'issue', live: false, prompt: '', help: false }
  const modes: StartMode[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--help' || arg === '-h') options.help = true
    else if (arg === '--live') options.live = true
    else if (arg === '--gaps') modes.push('gaps')
    else if (arg === '--prompt' || arg.startsWith('--prompt=')) {
      const value = arg === '--prompt' ? args[++i] : arg.slice('--prompt='.length)
      if (value === undefined || value.startsWith('--'))
        throw new UsageError(`--prompt needs the prompt's text after it: --prompt "Document …".`)
      options.prompt = value.trim() || DEFAULT_PROMPT
      modes.push('prompt')
    } else if (arg.startsWith('-')) throw new UsageError(`Unknown option '${arg.slice(0, 40)}'.`)
    else
      throw new UsageError(
        `'${arg.slice(0, 40)}' is not an option: a prompt goes after --prompt, in quotes.`
      )
  }
  if (modes.length > 1) throw new UsageError('Give --prompt or --gaps, not both.')
  options.mode = modes[0] ?? 'issue'
  return options
}

export interface LiveConnection {
  apiKey: string
  projectId: string
  apiUrl: string
}

/** The real service's key and project for --live, from the environment; throws when one is missing. */
export function liveConnection(env: NodeJS.ProcessEnv): LiveConnection {
  const apiKey = env.MINTLIFY_API_KEY?.trim() ?? ''
  const projectId = env.MINTLIFY_PROJECT_ID?.trim() ?? ''
  const missing = [
    ...(apiKey ? [] : ['MINTLIFY_API_KEY']),
    ...(projectId ? [] : ['MINTLIFY_PROJECT_ID'])
  ]
  if (missing.length)
    throw new UsageError(
      `--live needs ${missing.join(' and ')} in the environment (an admin API key and the project ID from the dashboard's API keys page).`
    )
  return { apiKey, projectId, apiUrl: env.MINTLIFY_API_URL?.trim() || 'https://api.mintlify.com' }
}
