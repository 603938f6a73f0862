/**
 * The proxy a request to `target` must go through, by the variables self-hosted runners set and
 * with the rules of the toolkit's HTTP client (@actions/http-client), so that one runner setting
 * covers this action's Mintlify and GitHub requests alike:
 * - `https_proxy`/`HTTPS_PROXY` for https targets, `http_proxy`/`HTTP_PROXY` for http;
 * - loopback is never proxied;
 * - `no_proxy`/`NO_PROXY`: `*`, or comma-separated hosts (`host` or `host:port`), each matching
 *   itself and its subdomains.
 */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const host = target.hostname.toLowerCase()
  if (isLoopback(host)) return undefined
  const names =
    target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']
  const name = names.find(n => env[n])
  const raw = name && env[name]
  if (!raw || bypassed(target, env.no_proxy || env.NO_PROXY || '')) return undefined
  try {
    return new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`)
  } catch {
    // The value may hold credentials: name the variable, never echo it.
    throw new Error(
      `The runner's ${name} is not a URL: set it to http://host:port (or http://user:password@host:port).`
    )
  }
}

function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host.startsWith('127.') ||
    host === '[::1]' ||
    host === '[0:0:0:0:0:0:0:1]'
  )
}

function bypassed(target: URL, noProxy: string): boolean {
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  const names = [target.hostname.toLowerCase(), `${target.hostname.toLowerCase()}:${port}`]
  return noProxy
    .split(',')
    .map(entry => entry.trim().toLowerCase())
    .filter(Boolean)
    .some(
      entry =>
        entry === '*' ||
        names.some(
          name => name === entry || name.endsWith(entry.startsWith('.') ? entry : `.${entry}`)
        )
    )
}

/** The Proxy-Authorization header for credentials in the proxy URL, if any. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {}
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` }
}
