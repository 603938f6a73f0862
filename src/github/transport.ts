import { getProxyUrl } from '@actions/http-client'
import { Agent, type Dispatcher, Pool, ProxyAgent, buildConnector, fetch } from 'undici'

type Socket = Dispatcher.ConnectData['socket']
const noop = (): void => {}

/**
 * The connections of one GitHub client, owned by the action. @actions/github makes its proxy
 * dispatcher once per process and never closes it: a proxy that accepts the connection and never
 * answers CONNECT leaves that tunnel pending for undici's 300 s, and the process cannot exit until
 * then. Here every socket is known, and `close()` ends them all, however far they got.
 * Proxies are chosen as the toolkit chooses them (HTTPS_PROXY, HTTP_PROXY, NO_PROXY; never for
 * loopback).
 */
export class GitHubTransport {
  private readonly dispatcher: Dispatcher
  private readonly sockets = new Set<Socket>()
  private closed?: Promise<void>

  constructor(apiUrl: string) {
    const proxy = getProxyUrl(apiUrl)
    const connect = this.track(buildConnector({}))
    this.dispatcher = proxy
      ? new ProxyAgent({
          uri: new URL(proxy).origin,
          token: proxyToken(new URL(proxy)),
          // The connection to the proxy, which carries the CONNECT: known, so it can be ended.
          clientFactory: (origin, options) =>
            new Pool(origin, {
              ...(options as Pool.Options),
              connect: this.track((options as Pool.Options).connect as buildConnector.connector)
            })
        })
      : new Agent({ connect })
  }

  /** What Octokit is given as `request.fetch`: undici's fetch over these connections. */
  readonly fetch = (input: string | URL, init?: RequestInit): Promise<Response> =>
    fetch(input, {
      ...(init as object),
      dispatcher: this.dispatcher
    }) as unknown as Promise<Response>

  /** Ends every connection, also one still waiting for a proxy's answer; at most about 1 s. */
  close(): Promise<void> {
    return (this.closed ??= this.teardown())
  }

  private teardown(): Promise<void> {
    const done = this.dispatcher.destroy().catch(noop)
    const closed = new Error('the GitHub connection was closed')
    for (const socket of this.sockets) socket.on('error', noop).destroy(closed)
    // ProxyAgent's destroy can wait for good on a tunnel that never opened: not the run's end.
    let timer: ReturnType<typeof setTimeout> | undefined
    const bound = new Promise<void>(resolve => (timer = setTimeout(resolve, 1000)))
    return Promise.race([done, bound]).finally(() => clearTimeout(timer))
  }

  private track(connect: buildConnector.connector): buildConnector.connector {
    return (options, callback) => {
      // buildConnector returns the socket it opens, though its type says void.
      const socket = (connect as (...args: unknown[]) => unknown)(options, callback) as Socket
      this.sockets.add(socket)
      socket.once('close', () => this.sockets.delete(socket))
    }
  }
}

/** Basic credentials from the proxy URL's user and password (a user alone is enough), as the toolkit sends them. */
function proxyToken(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`
  return `Basic ${Buffer.from(credentials).toString('base64')}`
}
