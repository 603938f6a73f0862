import { InputError } from './errors.js'
import type { InputReader, Masker } from './inputs.js'
import { CommonInput, DEFAULT_API_URL } from './names.js'

/**
 * Plain http is allowed only to this machine (the simulator), so the key is never sent in clear:
 * `localhost` itself and literal loopback addresses, as the URL parser normalises them. Names
 * under `.localhost` are not: a hosts file or DNS can send them anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return host === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '[::1]'
}

/**
 * A key or token goes into an HTTP header: only visible ASCII can. A zero-width space, a curly
 * quote or a line break pasted with the secret would otherwise fail every request, retried until
 * the time-out. The message never shows the value.
 */
export function checkHeaderSafe(name: string, secret: string): void {
  const bad = [...secret].findIndex(c => c < '!' || c > '~')
  if (bad >= 0) {
    const code = (secret.codePointAt(bad) as number).toString(16).toUpperCase().padStart(4, '0')
    throw new InputError(
      `Input '${name}' holds a character that cannot be sent in an HTTP header (U+${code} at position ${bad + 1}): copy the secret again, without spaces, line breaks or typographic quotes.`
    )
  }
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

const ID = /^[A-Za-z0-9._~-]{1,200}$/

/** Project and job ids become path segments: refuse anything that could change the path. */
export function parseId(name: string, raw: string): string {
  const value = raw.trim()
  if (!ID.test(value) || value === '.' || value === '..') {
    throw new InputError(
      `Input '${name}' must be an ID made of letters, digits, '-', '_', '.' or '~' (as shown on the dashboard); got '${raw}'.`
    )
  }
  return value
}

/** Where and as whom to call the service; shared by both actions. */
export interface Connection {
  /** Admin API key; already masked in the log. */
  apiKey: string
  projectId: string
  apiUrl: URL
}

/** Reads key, project and URL. The key is masked before anything else can print it. */
export function readConnection(get: InputReader, mask: Masker): Connection {
  const apiKey = get(CommonInput.ApiKey).trim()
  if (apiKey) mask(apiKey)
  if (!apiKey) {
    throw new InputError(
      `Input '${CommonInput.ApiKey}' is required: pass an admin API key from a secret, e.g. api-key: \${{ secrets.MINTLIFY_API_KEY }}.`
    )
  }
  checkHeaderSafe(CommonInput.ApiKey, apiKey)
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
