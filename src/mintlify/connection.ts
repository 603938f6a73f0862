import { InputError } from '../runner/errors.js'
import { type InputReader, type Masker, readSecret } from '../runner/inputs.js'
import { type Clock } from '../runner/clock.js'
import type { Logger } from '../runner/logger.js'
import type { Runner } from '../runner/runner.js'
import { type StepScope, runStep } from '../runner/step.js'
import { ApiClient } from './client.js'
import { proxyFor } from './http.js'

/** The inputs every action takes to reach the service, with the same meaning. */
export const CommonInput = {
  ApiKey: 'api-key',
  ProjectId: 'project-id',
  ApiUrl: 'api-url'
} as const

export const DEFAULT_API_URL = 'https://api.mintlify.com'

/**
 * Plain http is allowed only to this machine (the simulator), so the key is never sent in clear:
 * `localhost` itself and literal loopback addresses, as the URL parser normalises them. Names
 * under `.localhost` are not: a hosts file or DNS can send them anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return host === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]'
}

/** Validates the base URL of the service and normalises it to end without a slash. */
export function parseApiUrl(name: string, raw: string): URL {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new InputError(
      `Input '${name}' must be an absolute URL such as https://api.mintlify.com; got '${raw}'.`
    )
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new InputError(
      `Input '${name}' must use https:// (plain http:// is allowed only for localhost, 127.0.0.1 or ::1); got '${url.protocol}//${url.host}'.`
    )
  }
  if (url.username || url.password) {
    throw new InputError(`Input '${name}' must not contain credentials; pass the key in 'api-key'.`)
  }
  if (url.search || url.hash) {
    throw new InputError(`Input '${name}' must not have a query or fragment; got '${raw}'.`)
  }
  url.pathname = url.pathname.replace(/\/+$/, '')
  return url
}

/**
 * The one rule for project and job ids, from inputs, from the service's answers and from records.
 * The published documents make them opaque strings (a mock server's example is
 * "laborum est dolore"), and each becomes one percent-encoded path segment, so any text will do
 * except: empty, over 200 characters, control characters (C0, C1, line and paragraph separators,
 * bidirectional controls) and lone surrogates (which cannot be encoded), and `.` or `..`, which URL
 * parsing would resolve away as path segments.
 */
export const SERVICE_ID = /^(?!\.{1,2}$)[^\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Bidi_Control}]{1,200}$/u

/** An id for messages: quoted, escaped, and short. */
export function shownId(raw: string): string {
  const chars = Array.from(raw)
  return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : raw)
}

/** A project or job id from an input, trimmed, checked against the one id rule. */
export function parseId(name: string, raw: string): string {
  const value = raw.trim()
  if (!SERVICE_ID.test(value)) {
    throw new InputError(
      `Input '${name}' must be an ID as the Mintlify dashboard shows it: 1 to 200 characters, no control characters, and not '.' or '..'; got ${shownId(raw)}.`
    )
  }
  return value
}

/**
 * Keys of the service's other kinds: they share the admin prefix but cannot use the admin API, so
 * the service would refuse every request. Checked before the first one (the service's documentation
 * names these two).
 */
const OTHER_KEY_KINDS = [
  { prefix: 'mint_dsc_', kind: 'an assistant API key' },
  { prefix: 'mint_us_', kind: 'an index API key' }
] as const

/** Refuses a key of another kind than admin, naming its kind (never the key). */
export function checkKeyKind(name: string, apiKey: string): void {
  const other = OTHER_KEY_KINDS.find(k => apiKey.startsWith(k.prefix))
  if (!other) return
  throw new InputError(
    `Input '${name}' holds ${other.kind} (it starts with ${other.prefix}), which cannot use the admin API this action calls. ` +
      `Create an admin API key on the API keys page of the Mintlify dashboard (it starts with mint_, not ${OTHER_KEY_KINDS.map(k => k.prefix).join(' or ')}) and store it in the secret.`
  )
}

/** Where and as whom to call the service; shared by every action. */
export interface Connection {
  /** Admin API key; already masked in the log. */
  apiKey: string
  projectId: string
  apiUrl: URL
}

/** Reads key, project and URL. The key is masked before anything else can print it. */
export function readConnection(get: InputReader, mask: Masker): Connection {
  const apiKey = readSecret(get, mask, CommonInput.ApiKey)
  if (!apiKey) {
    throw new InputError(
      `Input '${CommonInput.ApiKey}' is required: pass an admin API key from a secret, e.g. api-key: \${{ secrets.MINTLIFY_API_KEY }}.`
    )
  }
  checkKeyKind(CommonInput.ApiKey, apiKey)
  const rawProject = get(CommonInput.ProjectId)
  if (!rawProject.trim()) {
    throw new InputError(
      `Input '${CommonInput.ProjectId}' is required: copy the project ID from the API keys page of the Mintlify dashboard.`
    )
  }
  const projectId = parseId(CommonInput.ProjectId, rawProject)
  const apiUrl = parseApiUrl(CommonInput.ApiUrl, get(CommonInput.ApiUrl).trim() || DEFAULT_API_URL)
  return { apiKey, projectId, apiUrl }
}

/**
 * The service client for validated inputs. A broken proxy variable is found here, before the first
 * request, not as a network error retried until the time-out; a key without the admin prefix gets
 * a warning, not a refusal.
 */
export function openClient(
  connection: Connection & { githubToken?: string; docsToken?: string; codeToken?: string },
  {
    log,
    signal,
    clock,
    pastDeadline
  }: { log: Logger; signal: AbortSignal; clock: Clock; pastDeadline?: string }
): ApiClient {
  try {
    proxyFor(connection.apiUrl)
  } catch (error) {
    throw new InputError((error as Error).message)
  }
  if (!connection.apiKey.startsWith('mint_')) {
    log.warning(
      "The 'api-key' does not start with mint_: admin API keys do. The service will refuse any other key."
    )
  }
  return new ApiClient({
    baseUrl: connection.apiUrl,
    apiKey: connection.apiKey,
    secrets: [connection.githubToken, connection.docsToken, connection.codeToken].filter(
      (t): t is string => Boolean(t)
    ),
    log,
    signal,
    clock,
    ...(pastDeadline ? { pastDeadline } : {})
  })
}

/**
 * The frame of a step that reads the service (the sub-actions): its settings read (the key kept
 * out of any failure message), a client opened for the step and closed however it ends.
 */
export async function runServiceStep<S extends Connection>(
  runner: Runner,
  readSettings: (get: InputReader, env: NodeJS.ProcessEnv, mask: Masker, now: number) => S,
  body: (settings: S, client: ApiClient, step: StepScope) => Promise<void>
): Promise<void> {
  const { log, clock } = runner
  await runStep(runner, async step => {
    const settings = readSettings(runner.input, runner.env, runner.mask, clock.wallNow())
    step.secret(settings.apiKey)
    const client = openClient(settings, { log, signal: step.signal, clock })
    step.finally(() => client.close())
    await body(settings, client, step)
  })
}
