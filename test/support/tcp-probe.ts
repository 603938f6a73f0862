import net from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A TCP server on loopback that does whatever `onSocket` says with each connection (answer a
 * CONNECT, close, say nothing at all) and counts them: the misbehaving peers of
 * test/integration/http.test.ts. Every socket it accepts is read (so it notices the other side
 * closing) and destroyed by close().
 */
export class TcpProbe {
  /** Connections accepted. */
  accepted = 0
  /** Connections the client side has closed, or that ended otherwise. */
  closed = 0
  /** The first chunk each connection sent. */
  readonly firstChunks: string[] = []
  private readonly sockets = new Set<net.Socket>()

  private constructor(private readonly server: net.Server) {}

  static async start(onSocket: (socket: net.Socket) => void = () => {}): Promise<TcpProbe> {
    const server = net.createServer()
    const probe = new TcpProbe(server)
    server.on('connection', socket => {
      probe.accepted++
      probe.sockets.add(socket)
      socket.on('error', () => {})
      socket.once('data', chunk => probe.firstChunks.push(chunk.toString('latin1')))
      socket.on('close', () => {
        probe.closed++
        probe.sockets.delete(socket)
      })
      socket.resume()
      onSocket(socket)
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    return probe
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Sockets still open on this side. */
  get open(): number {
    return this.sockets.size
  }

  /** A proxy that answers every CONNECT with `status` (200 pipes the tunnel to 127.0.0.1:`port`). */
  static async proxy(status: number, upstreamPort?: number): Promise<TcpProbe> {
    return TcpProbe.start(client =>
      client.once('data', () => {
        if (status !== 200 || upstreamPort === undefined) {
          client.end(`HTTP/1.1 ${status} No\r\ncontent-length: 0\r\n\r\n`)
          return
        }
        client.pause()
        const upstream = net.connect(upstreamPort, '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
          upstream.pipe(client).pipe(upstream)
          client.resume()
        })
        upstream.on('error', () => client.destroy())
        client.on('close', () => upstream.destroy())
      })
    )
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }
}

/** Waits until `check` holds, polling every 10 ms for at most `ms`. */
export async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  for (let waited = 0; waited < ms && !check(); waited += 10)
    await new Promise(resolve => setTimeout(resolve, 10))
  return check()
}
