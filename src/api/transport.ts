import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http'
import type * as Https from 'node:https'

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
 */
export class Transport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 4 })
  private https?: { module: typeof Https; agent: Https.Agent }

  async send(req: TransportRequest): Promise<TransportResponse> {
    const secure = req.url.protocol === 'https:'
    // TLS is loaded on the first https request, not at start-up: a run that fails on its inputs never needs it.
    if (secure && !this.https) {
      const module = await import('node:https')
      this.https = { module, agent: new module.Agent({ keepAlive: true, maxSockets: 4 }) }
    }
    const send = secure ? (this.https as { module: typeof Https }).module.request : httpRequest
    const keepAlive = secure ? this.https?.agent : this.http
    return new Promise((resolve, reject) => {
      let connected = false
      let settled = false
      const fail = (code: string, message: string): void => {
        if (settled) return
        settled = true
        reject(new TransportError(message, code, connected))
      }
      const outgoing = send(req.url, {
        method: req.method,
        headers:
          req.body === undefined
            ? req.headers
            : { ...req.headers, 'content-length': Buffer.byteLength(req.body) },
        agent: req.fresh ? false : keepAlive,
        signal: req.signal
      })
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

  close(): void {
    this.http.destroy()
    this.https?.agent.destroy()
  }
}
