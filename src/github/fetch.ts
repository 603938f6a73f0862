import { Transport } from '../api/transport.js'

const MAX_BYTES = 16 * 1024 * 1024
const TIMEOUT_MS = 15_000

/**
 * A `fetch` for Octokit over node:http(s). The toolkit's default, undici's fetch, compiles a
 * WebAssembly HTTP parser on first use: about 30 MB and tens of milliseconds for a few comment
 * calls (bench/results.md). Used only without a proxy, which the toolkit's fetch knows how to use.
 */
export function nodeFetch(transport = new Transport()): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value))
    // GitHubApi passes a time-limited signal with every call; this is only the fallback.
    const signal = init?.signal ?? AbortSignal.timeout(TIMEOUT_MS)
    const body =
      typeof init?.body === 'string'
        ? init.body
        : init?.body == null
          ? undefined
          : String(init.body)
    const res = await transport.send({
      method: init?.method ?? 'GET',
      url,
      headers,
      body,
      signal,
      maxResponseBytes: MAX_BYTES
    })
    const out = new Headers()
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) out.append(name, v)
      else if (value !== undefined) out.set(name, value)
    }
    const empty = res.status === 204 || res.status === 304 || init?.method === 'HEAD'
    const response = new Response(empty ? null : res.text, { status: res.status, headers: out })
    Object.defineProperty(response, 'url', { value: url.href })
    return response
  }
}

/** A proxy is configured: leave the requests to the toolkit, which honours it. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy)
}
