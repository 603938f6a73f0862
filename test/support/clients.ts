import { systemClock } from '../../src/runner/clock.js'
import { createServer } from 'node:net'
import { ApiClient, type ClientOptions } from '../../src/mintlify/client.js'
import { SIM_API_KEY, type Simulator } from '../simulator/server.js'
import { VirtualClock } from './virtual-clock.js'

/**
 * A client for the simulator with short backoff, its waits on a virtual clock of its own unless
 * given one (`clock`), so retry tests take no real time. Deadlines from `inSeconds` hold on it: it
 * reads the same monotonic time, moved on by the waits it skipped.
 */
export function simClient(
  sim: Simulator | string,
  options: Partial<ClientOptions> = {}
): ApiClient {
  return new ApiClient({
    baseUrl: new URL(typeof sim === 'string' ? sim : sim.url),
    apiKey: SIM_API_KEY,
    backoff: { minDelayMs: 10, baseDelayMs: 20, maxDelayMs: 100, maxWriteAttempts: 4 },
    clock: new VirtualClock(),
    ...options
  })
}

/** A loopback port with nothing listening: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

export const inSeconds = (s: number): number => systemClock.now() + s * 1000
