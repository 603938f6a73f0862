import { systemClock } from '../../src/runner/clock.js'
import { createServer } from 'node:net'
import { ApiClient, type ClientOptions } from '../../src/mintlify/client.js'
import { SIM_API_KEY, type Simulator } from '../simulator/server.js'

/** A client for the simulator with short backoff, so retry tests take milliseconds. */
export function simClient(
  sim: Simulator | string,
  options: Partial<ClientOptions> = {}
): ApiClient {
  return new ApiClient({
    baseUrl: new URL(typeof sim === 'string' ? sim : sim.url),
    apiKey: SIM_API_KEY,
    backoff: { minDelayMs: 10, baseDelayMs: 20, maxDelayMs: 100, maxWriteAttempts: 4 },
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
