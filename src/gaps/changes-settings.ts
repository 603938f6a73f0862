import { type DateValue, parseDateInput } from '../runner/dates.js'
import { InputError } from '../runner/errors.js'
import { type InputReader, type Masker, readSecret, sendableSecret } from '../runner/inputs.js'
import { GapsInput } from './names.js'

/** What tying gaps to changes needs: the window of changes, and GitHub. */
export interface ChangesSettings {
  since: DateValue
  githubToken: string
  owner: string
  repo: string
  /** GITHUB_API_URL. */
  apiUrl: string
}

/** `30d` (days before today, UTC), or any form date-from takes. */
const DAYS = /^(\d{1,4})d$/i

/**
 * The `changes-since` and `github-token` inputs, and the run's repository; undefined when
 * `changes-since` is empty (no tying, no GitHub). Checked before any request.
 */
export function readChangesSettings(
  get: InputReader,
  env: NodeJS.ProcessEnv,
  mask: Masker,
  now: number
): ChangesSettings | undefined {
  const raw = get(GapsInput.ChangesSince).trim()
  if (!raw) return undefined
  const days = DAYS.exec(raw)
  const since = parseDateInput(GapsInput.ChangesSince, days ? `-${days[1]}d` : raw, now)
  if (!since || since.at > now) {
    throw new InputError(
      `Input '${GapsInput.ChangesSince}' must be a start in the past: 30d (days before today, UTC) or a date as date-from takes; got '${raw}'.`
    )
  }
  const githubToken = readSecret(get, mask, GapsInput.GithubToken)
  if (!githubToken) {
    throw new InputError(
      `Input '${GapsInput.GithubToken}' is empty, and '${GapsInput.ChangesSince}' reads the repository's changes from GitHub: leave it at its default (\${{ github.token }}) with contents: read, pull-requests: read and issues: read, or leave '${GapsInput.ChangesSince}' empty.`
    )
  }
  sendableSecret(GapsInput.GithubToken, githubToken)
  const [owner = '', repo = '', ...rest] = (env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo || rest.length) {
    throw new InputError(
      `Input '${GapsInput.ChangesSince}' reads the changes of the run's repository, and GITHUB_REPOSITORY ('${env.GITHUB_REPOSITORY ?? ''}') names none: run it in a workflow, or set GITHUB_REPOSITORY=owner/name for a local run.`
    )
  }
  return {
    since,
    githubToken,
    owner,
    repo,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com'
  }
}
