import { Agent, DecoratorHandler, type Dispatcher, Pool, ProxyAgent, buildConnector } from 'undici'

// The one connection handler of the action, on undici (the toolkit's HTTP stack, same major): the
// service client (src/mintlify/http.ts) and the GitHub client (src/github/transport.ts) both
// reach their servers through it, directly or through the runner's proxy.

/** A failure below HTTP. `sent`: 'no' when the request provably never reached the server (safe to retry even a write), 'maybe' otherwise. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    message: string,
    readonly code: string,
    readonly sent: 'no' | 'maybe',
    options?: ErrorOptions
  ) {
    super(message, options)
  }
}

type Socket = Dispatcher.ConnectData['socket']
const noop = (): void => {}

/** Passes every event on, and says when undici hands the request to a connected socket. */
export class WriteNotifier extends DecoratorHandler {
  constructor(
    private readonly handler: Dispatcher.DispatchHandlers,
    private readonly onWrite: () => void
  ) {
    super(handler)
  }

  /** Called by undici right before it writes the request on a connected (tunnelled, TLS) socket. */
  onConnect(abort: (error?: Error) => void): void {
    this.onWrite()
    this.handler.onConnect?.(abort)
  }
}

export interface ConnectionOptions {
  /** The proxy to tunnel through (CONNECT), credentials in its URL; none: direct. */
  proxy?: URL
  /** TLS options, to the server and to the proxy (for tests: a certificate authority). */
  tls?: buildConnector.BuildOptions
  /** Opened for one request (a write), destroyed after it. */
  own?: boolean
  /** Bytes of an answer's body at most: undici fails the body past it (UND_ERR_RES_EXCEEDED_MAX_SIZE). */
  maxResponseSize?: number
  /** Judges a direct connection once made, before a byte of the request is written. */
  checkDirect?: (
    options: buildConnector.Options,
    callback: buildConnector.Callback
  ) => buildConnector.Callback
}

/**
 * A keep-alive dispatcher, direct or through one proxy, with every socket it opens, so that
 * destroying it also ends connections undici is still opening (it would leave them to their own
 * timeouts, 300 s for a proxy that never answers CONNECT, keeping the process alive meanwhile) and
 * never waits on a peer. A proxy's answer to CONNECT is judged here: undici would open a connection
 * the proxy closed again at once and without end.
 */
export class TrackedDispatcher {
  readonly dispatcher: Dispatcher
  readonly own: boolean
  private readonly sockets = new Set<Socket>()
  private proxyPool?: Pool
  private destroyed?: Promise<void>

  constructor({ proxy, tls = {}, own = false, maxResponseSize, checkDirect }: ConnectionOptions) {
    this.own = own
    const limits = maxResponseSize === undefined ? {} : { maxResponseSize }
    if (!proxy) {
      this.dispatcher = new Agent({
        connect: this.track(buildConnector(tls), checkDirect),
        ...limits
      })
      return
    }
    const bare = new URL(proxy.origin)
    this.dispatcher = new ProxyAgent({
      uri: bare.href,
      // ProxyAgent hands its options to the Agent behind the tunnel (undici 6's proxy-agent.js).
      ...limits,
      // As the toolkit does, and unlike ProxyAgent's reading of the URL: a user alone is enough.
      token: proxyToken(proxy),
      requestTls: tls,
      proxyTls: tls,
      clientFactory: (origin, options) => this.proxyClient(origin, options as Pool.Options, bare)
    })
  }

  /** Ends every connection, also one still opening; resolves within about a second whatever the peers do. */
  destroy(): Promise<void> {
    return (this.destroyed ??= this.teardown())
  }

  private teardown(): Promise<void> {
    // undici's own destroy first: it marks its clients destroyed, so a connection our socket
    // destruction fails is not retried. ProxyAgent.destroy can hang for good (a proxy that closed
    // a tunnel early), hence the bound.
    const done = Promise.allSettled([this.dispatcher.destroy(), this.proxyPool?.destroy()])
    const closed = new Error('the HTTP session closed the connection')
    for (const socket of this.sockets) socket.on('error', noop).destroy(closed)
    let timer: ReturnType<typeof setTimeout> | undefined
    const bound = new Promise<void>(resolve => (timer = setTimeout(resolve, 1000)))
    return Promise.race([done.then(noop), bound]).finally(() => clearTimeout(timer))
  }

  private track(
    connect: buildConnector.connector,
    check?: ConnectionOptions['checkDirect']
  ): buildConnector.connector {
    return (options, callback) => {
      const checked = check ? check(options, callback) : callback
      // buildConnector returns the socket it opens, though its type says void.
      const socket = (connect as (...args: unknown[]) => unknown)(options, checked) as Socket
      this.sockets.add(socket)
      socket.once('close', () => this.sockets.delete(socket))
    }
  }

  /** The connection to the proxy, whose answers to CONNECT are judged here rather than by undici. */
  private proxyClient(origin: URL, options: Pool.Options, proxy: URL): Pool {
    const pool = new Pool(origin, {
      ...options,
      connect: this.track(options.connect as buildConnector.connector)
    })
    this.proxyPool = pool
    const open = pool.connect.bind(pool) as (
      o: Dispatcher.ConnectOptions
    ) => Promise<Dispatcher.ConnectData>
    pool.connect = (async (o: Dispatcher.ConnectOptions) => {
      let answer: Dispatcher.ConnectData
      try {
        answer = await open(o)
      } catch (error) {
        // A connection that failed with UND_ERR_SOCKET (the proxy closed it) is one undici opens
        // again at once and without end, thousands of CONNECTs a second; other codes fail the
        // requests that wait for it.
        const code = (error as { code?: unknown }).code
        if (code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_INFO') throw error
        const message = `the proxy ${proxy.host} closed the connection instead of opening a tunnel to ${o.path}`
        throw new HttpError(message, 'PROXY_REFUSED', 'no', { cause: error })
      }
      if (answer.statusCode === 200) return answer
      answer.socket.on('error', noop).destroy()
      // undici would report "Proxy response (N) !== 200 when HTTP Tunneling" as UND_ERR_ABORTED,
      // and go on to start TLS on the socket all the same.
      if (answer.statusCode === 407) throw proxyAuthError(proxy)
      const message = `the proxy ${proxy.host} would not open a tunnel to ${o.path} (HTTP ${answer.statusCode})`
      throw new HttpError(message, 'PROXY_REFUSED', 'no')
    }) as Pool['connect']
    return pool
  }
}

/** Basic credentials from the proxy URL's user and password, percent-decoded. */
function proxyToken(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`
  return `Basic ${Buffer.from(credentials).toString('base64')}`
}

/** Names the proxy by host and port only: its URL may hold credentials. */
function proxyAuthError(proxy: URL): HttpError {
  return new HttpError(
    `the proxy ${proxy.host} asks for credentials (407): put them in the proxy variable as http://user:password@${proxy.host}`,
    'PROXY_AUTH',
    'no'
  )
}
