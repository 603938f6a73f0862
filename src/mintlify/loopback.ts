import type { Dispatcher, buildConnector } from 'undici'
import { HttpError } from '../runner/connections.js'

// The service's own rule for its connections (src/runner/connections.ts opens them).

type Socket = Dispatcher.ConnectData['socket']

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export const isLoopbackAddress = (address: string): boolean =>
  /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address) || address === '::1'

/**
 * Plain http goes only to this machine (see parseApiUrl; never through a proxy): a `localhost`
 * that a hosts file or DNS sends elsewhere is refused once connected, before a byte of the
 * request is written. https connections pass as they are. No undici option checks the address a
 * connection reached, hence this check in the connector.
 */
export function loopbackOnlyForHttp(
  options: buildConnector.Options,
  callback: buildConnector.Callback
): buildConnector.Callback {
  if (options.protocol !== 'http:') return callback
  const done = callback as (error: Error | null, socket: Socket | null) => void
  return ((error: Error | null, connected: Socket | null) => {
    const address = (connected as { remoteAddress?: string } | null)?.remoteAddress ?? ''
    if (error || !connected || isLoopbackAddress(address)) return done(error, connected)
    connected.destroy()
    done(
      new HttpError(
        `plain http is allowed only to this machine, but ${options.hostname} is ${address}; use https:// in 'api-url'`,
        'NOT_LOOPBACK',
        'no'
      ),
      null
    )
  }) as buildConnector.Callback
}
