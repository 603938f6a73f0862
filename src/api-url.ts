import { isIP } from 'node:net'
import { InputError } from './input-error.js'

/** Loopback hosts may use plain http (the simulator); everything else must be https so the key is never sent in clear. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1'
  return false
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
