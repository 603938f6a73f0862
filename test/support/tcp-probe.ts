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
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = []
  /** Local ports of the probe's own connections (see `settled`), which it does not count. */
  private readonly own = new Set<number>()

  private constructor(private readonly server: net.Server) {}

  /** Resolves once `check` holds, looked at whenever a connection comes, sends or closes. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve()
    return new Promise(resolve => this.waiters.push({ check, resolve }))
  }

  /**
   * Resolves once every connection opened before the call has been accepted: it connects once
   * itself, from a port it chose beforehand so that it knows its own connection, and waits for
   * it, which the kernel's accept queue (first in, first out) hands over after the others. The
   * probe's own connection is not counted.
   */
  async settled(): Promise<void> {
    const spare = net.createServer()
    await new Promise<void>(resolve => spare.listen(0, '127.0.0.1', resolve))
    const localPort = (spare.address() as AddressInfo).port
    await new Promise<void>(resolve => spare.close(() => resolve()))
    this.own.add(localPort)
    const accepted = this.until(() => !this.own.has(localPort))
    const socket = net.connect({ port: this.port, host: '127.0.0.1', localPort })
    socket.on('error', () => {})
    await accepted
    socket.destroy()
  }

  private changed(): void {
    for (const w of [...this.waiters])
      if (w.check()) {
        this.waiters.splice(this.waiters.indexOf(w), 1)
        w.resolve()
      }
  }

  static async start(onSocket: (socket: net.Socket) => void = () => {}): Promise<TcpProbe> {
    const server = net.createServer()
    const probe = new TcpProbe(server)
    server.on('connection', socket => {
      if (probe.own.delete(socket.remotePort as number)) {
        probe.changed()
        return void socket.on('error', () => {}).resume()
      }
      probe.accepted++
      probe.sockets.add(socket)
      socket.on('error', () => {})
      socket.once('data', chunk => {
        probe.firstChunks.push(chunk.toString('latin1'))
        probe.changed()
      })
      socket.on('close', () => {
        probe.closed++
        probe.sockets.delete(socket)
        probe.changed()
      })
      socket.resume()
      onSocket(socket)
      probe.changed()
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
