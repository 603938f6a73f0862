import { getProxyUrl } from '@actions/http-client'
import { fetch } from 'undici'
import { TrackedDispatcher } from '../runner/connections.js'

/**
 * The connections of one GitHub client, owned by the action. @actions/github makes its proxy
 * dispatcher once per process and never closes it: a proxy that accepts the connection and never
 * answers CONNECT leaves that tunnel pending for undici's 300 s, and the process cannot exit until
 * then. Here they are the action's one connection handler (src/runner/connections.ts), the service
 * client's too: every socket is known, `close()` ends them all however far they got, and a proxy's
 * refusal of a tunnel fails the call rather than being retried by undici without end.
 * Proxies are chosen as the toolkit chooses them (HTTPS_PROXY, HTTP_PROXY, NO_PROXY; never for
 * loopback).
 */
export class GitHubTransport {
  private readonly connections: TrackedDispatcher

  constructor(apiUrl: string) {
    const proxy = getProxyUrl(apiUrl)
    this.connections = new TrackedDispatcher({ proxy: proxy ? new URL(proxy) : undefined })
  }

  /** What Octokit is given as `request.fetch`: undici's fetch over these connections. */
  readonly fetch = (input: string | URL, init?: RequestInit): Promise<Response> =>
    fetch(input, {
      ...(init as object),
      dispatcher: this.connections.dispatcher
    }) as unknown as Promise<Response>

  /** Ends every connection, also one still waiting for a proxy's answer; at most about 1 s. */
  close(): Promise<void> {
    return this.connections.destroy()
  }
}
