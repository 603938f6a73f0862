import { checkBypass, getProxyUrl } from '@actions/http-client/lib/proxy'
import type { Dispatcher } from 'undici'
import { HttpError, TrackedDispatcher, WriteNotifier } from '../runner/connections.js'
import { loopbackOnlyForHttp } from './loopback.js'

export { HttpError }

export interface HttpRequest {
  method: 'GET' | 'POST'
  url: URL
  headers: Record<string, string>
  body?: string
  /** The request's time limit and the run's cancellation. */
  signal: AbortSignal
}

export interface HttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

export interface HttpSessionOptions {
  /** A larger answer is refused (RESPONSE_TOO_LARGE) rather than held in memory. */
  maxResponseBytes: number
  /** Replaces the trusted certificate authorities (for tests; runners use NODE_EXTRA_CA_CERTS). */
  ca?: string
}

const noop = (): void => {}

/**
 * The service client's HTTP layer, on undici (the toolkit's HTTP stack, same major).
 *
 * Sent or not: a request counts as sent ('maybe') from the moment undici hands it to a connected
 * socket, which it announces by calling the handler's onConnect right before writing it: after
 * TCP, the proxy's CONNECT and TLS have all succeeded. Every failure before that is 'no': refused,
 * DNS, connect timeout, a reset while connecting, a certificate, a proxy's refusal, an abort.
 *
 * Writes (POST) get connections of their own, opened for them and closed after: a reset on a
 * keep-alive socket that sat idle would leave a write ambiguous for nothing, and tearing down a
 * stuck connection (see `send`) must not take another request's write with it.
 */
export class HttpSession {
  private readonly proxies = new Map<string, URL | undefined>()
  private readonly shared = new Map<string, TrackedDispatcher>()
  private readonly own = new Set<TrackedDispatcher>()
  private closed = false

  constructor(private readonly options: HttpSessionOptions) {}

  async send(req: HttpRequest): Promise<HttpResponse> {
    // https through the proxy's CONNECT tunnel, TLS end to end. Plain http goes only to this
    // machine (parseApiUrl), which is never proxied: it always goes direct, where the connection
    // is checked to be loopback.
    const proxy = req.url.protocol === 'https:' ? this.proxyFor(req.url) : undefined
    if (this.closed) throw new HttpError('the HTTP session is closed', 'CLOSED', 'no')
    if (req.signal.aborted)
      throw new HttpError('aborted before the request was sent', 'ABORTED', 'no')
    const connections = this.connections(proxy, req.method !== 'GET')
    const controller = new AbortController()
    let written = false
    let settled = false
    const dispatcher = connections.dispatcher.compose(
      dispatch => (opts, handler) =>
        dispatch(opts, new WriteNotifier(handler, () => (written = !controller.signal.aborted)))
    )
    const exchange = this.exchange(dispatcher, req, controller.signal)
    let onAbort = noop
    const early = new Promise<never>((_, reject) => {
      onAbort = () => {
        controller.abort(req.signal.reason)
        // Written: undici destroys the socket and the exchange fails by itself, as 'maybe'.
        if (written || settled) return
        // Queued or connecting: undici does not look at the signal until the connection is up or
        // has failed, 300 s for a proxy that never answers CONNECT, 10 s for a TLS handshake that
        // never ends. Answer now, and tear those connections down.
        void this.discard(connections)
        reject(new HttpError('aborted before the request was sent', 'ABORTED', 'no'))
      }
    })
    early.catch(noop)
    exchange.catch(noop)
    req.signal.addEventListener('abort', onAbort, { once: true })
    try {
      return await Promise.race([exchange, early])
    } catch (error) {
      throw failure(error, written, req.signal)
    } finally {
      settled = true
      req.signal.removeEventListener('abort', onAbort)
      if (connections.own) void this.discard(connections)
    }
  }

  /** Destroys every connection, open or opening; resolves within a second whatever the peers do. */
  async close(): Promise<void> {
    this.closed = true
    await Promise.all([...this.shared.values(), ...this.own].map(c => this.discard(c)))
  }

  private async exchange(
    dispatcher: Dispatcher,
    req: HttpRequest,
    signal: AbortSignal
  ): Promise<HttpResponse> {
    const { statusCode, headers, body } = await dispatcher.request({
      origin: req.url.origin,
      path: req.url.pathname + req.url.search,
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal
    })
    let text: string
    try {
      // undici closes the connection once the body passes maxResponseSize (see TrackedDispatcher).
      text = await body.text()
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'UND_ERR_RES_EXCEEDED_MAX_SIZE') throw error
      const message = `the answer is larger than ${this.options.maxResponseBytes} bytes`
      throw new HttpError(message, 'RESPONSE_TOO_LARGE', 'maybe', { cause: error })
    }
    return { status: statusCode, headers, text }
  }

  /** The proxy for a target, read from the environment once per origin. */
  private proxyFor(url: URL): URL | undefined {
    if (!this.proxies.has(url.origin)) {
      try {
        this.proxies.set(url.origin, proxyFor(url))
      } catch (error) {
        if (error instanceof ProxyConfigError) throw new HttpError(error.message, error.code, 'no')
        throw error
      }
    }
    return this.proxies.get(url.origin)
  }

  private connections(proxy: URL | undefined, own: boolean): TrackedDispatcher {
    const tls = this.options.ca === undefined ? {} : { ca: this.options.ca }
    const open = (): TrackedDispatcher =>
      new TrackedDispatcher({
        proxy,
        tls,
        own,
        maxResponseSize: this.options.maxResponseBytes,
        checkDirect: loopbackOnlyForHttp
      })
    if (own) {
      const connections = open()
      this.own.add(connections)
      return connections
    }
    const key = proxy?.href ?? ''
    let connections = this.shared.get(key)
    if (!connections) this.shared.set(key, (connections = open()))
    return connections
  }

  private discard(connections: TrackedDispatcher): Promise<void> {
    for (const [key, value] of this.shared) if (value === connections) this.shared.delete(key)
    this.own.delete(connections)
    return connections.destroy()
  }
}

function failure(error: unknown, written: boolean, signal: AbortSignal): HttpError {
  if (error instanceof HttpError) return error
  const sent = written ? 'maybe' : 'no'
  if (signal.aborted) {
    const message = written ? 'aborted after the request was sent' : 'aborted'
    return new HttpError(message, 'ABORTED', sent, { cause: error })
  }
  const { code, message } = error as { code?: unknown; message?: unknown }
  return new HttpError(
    typeof message === 'string' ? message : String(error),
    typeof code === 'string' ? code : 'ERR_NETWORK',
    sent,
    { cause: error }
  )
}

/** The runner's proxy variable cannot be used. The message names the variable, never its value. */
export class ProxyConfigError extends Error {
  override name = 'ProxyConfigError'
  readonly code = 'PROXY_CONFIG'
  constructor(readonly variable: string) {
    super(
      `The runner's ${variable} is not a proxy URL this action can use: set it to http://host:port (or http://user:password@host:port, special characters in the password percent-encoded).`
    )
  }
}

/**
 * The proxy for a request to `target`, by the toolkit's own rule (@actions/http-client's
 * getProxyUrl, which the GitHub client follows too), from the runner's environment:
 * `https_proxy`/`HTTPS_PROXY` for https targets, `http_proxy`/`HTTP_PROXY` for http; loopback hosts
 * (localhost, 127.*, [::1]) never proxied; `no_proxy`/`NO_PROXY` entries match the host and its
 * subdomains, `*` everything.
 *
 * Where the toolkit would silently go direct, or build a URL nothing can connect to, this throws
 * ProxyConfigError: a value that is no URL (`http://[bad`), a malformed percent escape (getProxyUrl
 * then answers "no proxy"), a scheme-less `host:port` (URL reads `host:` as the scheme), or a
 * scheme other than http(s) (socks5).
 */
export function proxyFor(target: URL): URL | undefined {
  const names =
    target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY']
  const variable = names.find(name => process.env[name]) ?? names[1]!
  let proxy: URL | undefined
  let bypassed = false
  try {
    bypassed = checkBypass(target)
    proxy = getProxyUrl(target)
  } catch {
    // Its fallback, `http://` + the value, can throw, and that error would hold the value.
    proxy = undefined
  }
  if (bypassed || !process.env[variable]) return undefined
  if (!proxy || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || !proxy.hostname)
    throw new ProxyConfigError(variable)
  // A plain URL: the toolkit's returns its user and password decoded, unlike its href.
  return new URL(proxy.href)
}
