import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A forward proxy on loopback, as self-hosted runners sit behind. It answers CONNECT tunnels and
 * absolute-URI requests, sends every host to 127.0.0.1 (so test hosts need no DNS), and records
 * the targets it was asked for.
 */
export class LoopbackProxy {
  readonly targets: string[] = []
  private constructor(private readonly server: http.Server) {}

  /** With `credentials` ("user:password"), asks for them (407) before anything else. */
  static async start(options: { credentials?: string } = {}): Promise<LoopbackProxy> {
    const server = http.createServer()
    const proxy = new LoopbackProxy(server)
    const expected = options.credentials
      ? `Basic ${Buffer.from(options.credentials).toString('base64')}`
      : undefined
    server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      if (expected && req.headers['proxy-authorization'] !== expected) {
        client.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n'
        )
        return
      }
      proxy.targets.push(req.url ?? '')
      const port = Number(new URL(`http://${req.url ?? ''}`).port || 443)
      const upstream = net.connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(client).pipe(upstream)
      })
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    })
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (expected && req.headers['proxy-authorization'] !== expected) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end()
        return
      }
      const target = new URL(req.url ?? '')
      proxy.targets.push(target.host)
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: target.port || 80,
          path: target.pathname + target.search,
          method: req.method,
          headers: req.headers
        },
        reply => {
          res.writeHead(reply.statusCode ?? 502, reply.headers)
          reply.pipe(res)
        }
      )
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    return proxy
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }
}

/**
 * A proxy on loopback that accepts every connection and never answers, not even a CONNECT: what a
 * broken corporate proxy does. It counts the connections still open.
 */
export class SilentProxy {
  private readonly sockets = new Set<net.Socket>()
  private readonly waiters: (() => void)[] = []
  /** Connections accepted so far. */
  accepted = 0

  private constructor(private readonly server: net.Server) {
    server.on('connection', socket => {
      this.accepted++
      this.sockets.add(socket)
      socket.on('data', () => {})
      socket.on('error', () => {})
      socket.on('close', () => {
        this.sockets.delete(socket)
        if (this.sockets.size === 0) for (const resolve of this.waiters.splice(0)) resolve()
      })
      for (const resolve of this.waiters.splice(0)) resolve()
    })
  }

  static async start(): Promise<SilentProxy> {
    const server = net.createServer()
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    return new SilentProxy(server)
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** Connections the other side has not closed. */
  get open(): number {
    return this.sockets.size
  }

  /** Resolves once a connection has come in (at once if one has). */
  connected(): Promise<void> {
    if (this.accepted > 0) return Promise.resolve()
    return new Promise(resolve => this.waiters.push(resolve))
  }

  /** Resolves once every connection has been closed by the other side. */
  async idle(): Promise<void> {
    while (this.sockets.size > 0) await new Promise<void>(resolve => this.waiters.push(resolve))
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }
}
