import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http'
import type * as Https from 'node:https'
import { proxyAuthorization, proxyFor } from './proxy.js'

export interface TransportRequest {
  method: string
  url: URL
  headers: Record<string, string>
  body?: string
  /** On a fresh connection: a reset then means the server dropped it, not that an idle socket went stale. */
  fresh?: boolean
  /** Aborts the request: cancellation or the per-request time limit. */
  signal: AbortSignal
  maxResponseBytes: number
}

export interface TransportResponse {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

/** A failure below HTTP, with whether the connection was ever made: before that, nothing was sent. */
export class TransportError extends Error {
  override name = 'TransportError'
  constructor(
    message: string,
    readonly code: string,
    readonly connected: boolean
  ) {
    super(message)
  }
}

/**
 * One request over node:http(s) with keep-alive. Chosen over undici for this client: undici compiles
 * its WebAssembly HTTP parser on the first request, which costs about 45 MB of peak memory and a
 * quarter of a second per run (bench/results.md); Node's native parser costs neither.
 * Honours HTTP(S)_PROXY and NO_PROXY (src/api/proxy.ts): https through a CONNECT tunnel.
 */
export class Transport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 4 })
  private https?: typeof Https
  private readonly tunnels = new Map<string, Https.Agent>()
  private httpsAgent?: Https.Agent

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async send(req: TransportRequest): Promise<TransportResponse> {
    const secure = req.url.protocol === 'https:'
    const proxy = proxyFor(req.url, this.env)
    // TLS is loaded on the first https request, not at start-up: a run that fails on its inputs never needs it.
    const https = secure ? (this.https ??= await import('node:https')) : undefined
    let agent: HttpAgent | false = this.http
    if (https && proxy) agent = await this.tunnelTo(proxy, req.fresh)
    else if (https)
      agent = req.fresh
        ? false
        : (this.httpsAgent ??= new https.Agent({ keepAlive: true, maxSockets: 4 }))
    else if (req.fresh) agent = false
    const headers =
      proxy && !https
        ? { ...req.headers, host: req.url.host, ...proxyAuthorization(proxy) }
        : req.headers
    return new Promise((resolve, reject) => {
      let connected = false
      let settled = false
      const fail = (code: string, message: string): void => {
        if (settled) return
        settled = true
        reject(new TransportError(message, code, connected))
      }
      const options = {
        method: req.method,
        headers:
          req.body === undefined
            ? headers
            : { ...headers, 'content-length': Buffer.byteLength(req.body) },
        agent,
        signal: req.signal
      }
      const outgoing = https
        ? https.request(req.url, options)
        : proxy
          ? // Plain http through a proxy: the request goes to the proxy, naming the absolute URL.
            httpRequest({
              ...options,
              host: proxy.hostname,
              port: proxy.port || 80,
              path: req.url.href
            })
          : httpRequest(req.url, options)
      outgoing.on('socket', socket => {
        // A reused keep-alive socket is already connected; a new one says so when it is.
        if (!socket.connecting) connected = true
        else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true))
      })
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (req.signal.aborted) fail('ABORT_ERR', 'aborted')
        else fail(error.code ?? 'network error', error.message)
      })
      outgoing.on('response', incoming => {
        const chunks: Buffer[] = []
        let size = 0
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > req.maxResponseBytes) {
            fail('RESPONSE_TOO_LARGE', `the answer is larger than ${req.maxResponseBytes} bytes`)
            incoming.destroy()
            return
          }
          chunks.push(chunk)
        })
        incoming.on('error', (error: NodeJS.ErrnoException) =>
          fail(error.code ?? 'network error', error.message)
        )
        incoming.on('aborted', () =>
          fail('ECONNRESET', 'the connection closed in the middle of the answer')
        )
        incoming.on('end', () => {
          if (settled) return
          settled = true
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString('utf8')
          })
        })
      })
      outgoing.end(req.body)
    })
  }

  /** The keep-alive agent through `proxy`, or with `fresh` a one-off one (a new tunnel). */
  private async tunnelTo(proxy: URL, fresh = false): Promise<Https.Agent> {
    // Loaded only behind a proxy.
    const { tunnelAgent } = await import('./tunnel.js')
    if (fresh) return tunnelAgent(proxy, false)
    let agent = this.tunnels.get(proxy.href)
    if (!agent) this.tunnels.set(proxy.href, (agent = tunnelAgent(proxy, true)))
    return agent
  }

  close(): void {
    this.http.destroy()
    this.httpsAgent?.destroy()
    for (const agent of this.tunnels.values()) agent.destroy()
  }
}
