import { request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, type RequestOptions, request as httpsRequest } from 'node:https'
import type { Duplex } from 'node:stream'
import { isIP } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { proxyAuthorization } from './proxy.js'

const CONNECT_TIMEOUT_MS = 30_000

/** The proxy would not open a tunnel: its status says why (407: credentials, 403: policy, 502: upstream). */
export class ProxyError extends Error {
  override name = 'ProxyError'
  readonly code: string
  constructor(
    readonly status: number,
    proxy: URL,
    target: string
  ) {
    super(
      status === 407
        ? `the proxy ${proxy.host} asks for credentials (407): put them in the proxy variable as http://user:password@${proxy.host}`
        : `the proxy ${proxy.host} would not open a tunnel to ${target} (HTTP ${status})`
    )
    this.code = status === 407 ? 'PROXY_AUTH' : 'PROXY_REFUSED'
  }
}

/**
 * An https agent whose connections run through an HTTP CONNECT tunnel, as corporate proxies on
 * self-hosted runners require. The TLS session is end to end: the proxy sees only the host name.
 * A socket is handed to the request only once TLS is up, so "connected" keeps meaning the
 * service could have received the request.
 */
export function tunnelAgent(proxy: URL, keepAlive: boolean): HttpsAgent {
  class TunnelAgent extends HttpsAgent {
    override createConnection(
      options: RequestOptions,
      callback?: (err: Error | null, stream: Duplex) => void
    ): Duplex | null | undefined {
      let called = false
      const done = (error: Error | null, stream?: Duplex): void => {
        if (called) return
        called = true
        callback?.(error, stream as Duplex)
      }
      const host = options.hostname ?? options.host ?? 'localhost'
      const target = `${host}:${options.port ?? 443}`
      const send = proxy.protocol === 'https:' ? httpsRequest : httpRequest
      const connect = send({
        host: proxy.hostname,
        port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
        method: 'CONNECT',
        path: target,
        headers: { host: target, ...proxyAuthorization(proxy) },
        agent: false
      })
      connect.once('connect', (res, socket) => {
        socket.setTimeout(0) // The tunnel may idle in the keep-alive pool from now on.
        if (res.statusCode !== 200) {
          socket.destroy()
          done(new ProxyError(res.statusCode ?? 0, proxy, target))
          return
        }
        const secure = tlsConnect({
          ...(options as object),
          socket,
          // SNI takes names only; Node warns when given an address.
          servername: options.servername ?? (isIP(host) ? undefined : host)
        })
        secure.once('secureConnect', () => done(null, secure))
        secure.once('error', error => done(error))
      })
      connect.once('error', error => done(error))
      // A proxy that never answers must not hold the run open: the request's own time limit
      // cannot reach this inner request.
      connect.setTimeout(CONNECT_TIMEOUT_MS, () =>
        connect.destroy(
          Object.assign(new Error(`the proxy ${proxy.host} did not answer`), { code: 'ETIMEDOUT' })
        )
      )
      connect.end()
      return undefined
    }
  }
  return new TunnelAgent({ keepAlive, maxSockets: 4 })
}
