import { spawn } from 'node:child_process'
import { EventEmitter, once } from 'node:events'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  HttpError,
  type HttpRequest,
  HttpSession,
  ProxyConfigError,
  proxyFor
} from '../../src/mintlify/http.js'
import { testCertificate } from '../support/certificate.js'
import { limitChild } from '../support/child-limit.js'
import { LoopbackProxy } from '../support/proxy.js'
import { TcpProbe } from '../support/tcp-probe.js'

// Every server here listens on 127.0.0.1. Targets named mintlify.proxied.test are not loopback
// names, so the toolkit's rule sends them to the proxy, and the test proxies map them to 127.0.0.1:
// nothing resolves them outside the proxy.

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map(close => close()))
  vi.unstubAllEnvs()
})

const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy'
]

/** The runner's proxy variables: these, and no other (whatever the machine running the tests has). */
function stubProxyEnv(env: Record<string, string>): void {
  for (const name of PROXY_VARIABLES) vi.stubEnv(name, env[name] ?? '')
}

function session(
  env: Record<string, string> = {},
  withCa = true,
  maxResponseBytes = 1 << 20
): HttpSession {
  stubProxyEnv(env)
  const s = new HttpSession({ maxResponseBytes, ...(withCa ? { ca: cert } : {}) })
  cleanup.push(() => s.close())
  return s
}

async function probe(onSocket?: Parameters<typeof TcpProbe.start>[0]): Promise<TcpProbe> {
  const p = await TcpProbe.start(onSocket)
  cleanup.push(() => p.close())
  return p
}

interface Served {
  url: string
  port: number
  /** Connections accepted. */
  connections: number
  /** Resolves once this many connections have closed. */
  closed(count: number): Promise<void>
  /** Resolves once this many requests have come in whole. */
  received(count: number): Promise<void>
  requests: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[]
}

/** An http(s) server on loopback; `handle` answers once the request body is in. */
async function serve(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  secure = false,
  /** How long an idle connection is kept, and the `Keep-Alive: timeout` the client is told. */
  keepAliveMs = 5000
): Promise<Served> {
  const server = secure ? https.createServer({ key, cert }) : http.createServer()
  server.keepAliveTimeout = keepAliveMs
  let closed = 0
  const changed = new EventEmitter()
  const until = (check: () => boolean): Promise<void> =>
    new Promise(resolve => {
      const look = (): void => {
        if (!check()) return
        changed.off('change', look)
        resolve()
      }
      changed.on('change', look)
      look()
    })
  const served: Served = {
    url: '',
    port: 0,
    connections: 0,
    closed: count => until(() => closed >= count),
    received: count => until(() => served.requests.length >= count),
    requests: []
  }
  server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
    served.connections++
    socket.on('close', () => {
      closed++
      changed.emit('change')
    })
  })
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', chunk => (body += chunk))
    req.on('end', () => {
      served.requests.push({ method: req.method, url: req.url, headers: req.headers, body })
      changed.emit('change')
      handle(req, res)
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  served.port = (server.address() as AddressInfo).port
  served.url = `${secure ? 'https' : 'http'}://127.0.0.1:${served.port}`
  cleanup.push(() => {
    server.closeAllConnections()
    return new Promise(resolve => server.close(resolve))
  })
  return served
}

const request = (url: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'GET',
  url: new URL(url),
  headers: {},
  signal: AbortSignal.timeout(5000),
  ...extra
})

/**
 * Between two reads: undici checks an idle keep-alive socket for a close during one turn of the
 * event loop before reusing it, and opens another connection for a request that comes sooner.
 */
const pause = (): Promise<unknown> => new Promise(resolve => setImmediate(resolve))

async function rejection(promise: Promise<unknown>): Promise<{ error: HttpError }> {
  const error = await promise.then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(HttpError)
  return { error: error as HttpError }
}

/**
 * Sends with a signal the test aborts once `ready` resolves (the peer holds the connection and
 * will never answer); the error, which must have come before the event loop turned again after the
 * abort: from the abort itself, not from a timer or from anything the peer did. Without the
 * workaround undici would answer only at its own time limit (10 s for a TLS handshake, 300 s for a
 * CONNECT), so this tells the two apart on a machine however loaded, with no clock.
 */
async function abortedAtOnce(
  ready: Promise<unknown>,
  send: (signal: AbortSignal) => Promise<unknown>
): Promise<HttpError> {
  const controller = new AbortController()
  let settled = false
  const pending = rejection(send(controller.signal)).finally(() => (settled = true))
  pending.catch(() => {})
  await ready
  controller.abort(new Error('aborted by the test'))
  await new Promise(resolve => setImmediate(resolve))
  expect(settled, 'the request was still pending a turn of the event loop after the abort').toBe(
    true
  )
  return (await pending).error
}

/** A signal that never aborts: a request that fails does so by itself, not by a time limit. */
const never = new AbortController().signal

let key: string
let cert: string
beforeAll(() => {
  ;({ key, cert } = testCertificate())
})

describe('HttpSession, direct', () => {
  it('sends a request and reads the answer, decoding UTF-8 split across chunks', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-twice': ['a', 'b'] })
      const bytes = Buffer.from('{"text":"héllo ✓"}')
      res.write(bytes.subarray(0, 12)) // in the middle of ✓
      // The rest two turns of the event loop later: the client (in this process) reads the first
      // part in the turn between, as a chunk of its own. No clock: a loaded machine changes nothing.
      setImmediate(() => setImmediate(() => res.end(bytes.subarray(12))))
    })
    const res = await session().send(
      request(`${server.url}/v1/jobs?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: '{"prompt":"é"}'
      })
    )
    expect(res.status).toBe(201)
    expect(JSON.parse(res.text)).toEqual({ text: 'héllo ✓' })
    expect(res.headers['x-twice']).toEqual(['a', 'b'])
    expect(server.requests).toEqual([
      expect.objectContaining({ method: 'POST', url: '/v1/jobs?x=1', body: '{"prompt":"é"}' })
    ])
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer k',
      'content-length': String(Buffer.byteLength('{"prompt":"é"}'))
    })
  })

  it('keeps one connection for reads and opens a fresh one for each write', async () => {
    const server = await serve((_req, res) => res.end('{}'))
    const s = session()
    await s.send(request(server.url))
    await pause()
    await s.send(request(server.url))
    expect(server.connections).toBe(1)
    await s.send(request(server.url, { method: 'POST', body: '{}' }))
    await s.send(request(server.url, { method: 'POST', body: '{}' }))
    expect(server.connections).toBe(3)
  })

  it('talks https to a server whose certificate it trusts', async () => {
    const server = await serve((_req, res) => res.end('{"ok":true}'), true)
    expect((await session().send(request(server.url))).text).toBe('{"ok":true}')
  })

  it('fails an untrusted certificate with its code, as not sent', async () => {
    const server = await serve((_req, res) => res.end('{}'), true)
    const { error } = await rejection(session({}, false).send(request(server.url)))
    expect(error).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', sent: 'no' })
    const wrongName = server.url.replace('127.0.0.1', 'localhost')
    const { error: altName } = await rejection(session().send(request(wrongName)))
    expect(altName).toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID', sent: 'no' })
    expect(server.requests).toHaveLength(0)
  })

  it('fails a refused connection as not sent', async () => {
    const closed = await TcpProbe.start()
    const url = closed.url
    await closed.close()
    const { error } = await rejection(session().send(request(url, { method: 'POST' })))
    expect(error).toMatchObject({ code: 'ECONNREFUSED', sent: 'no' })
  })

  it('fails as maybe sent when the server reads the request and drops the connection', async () => {
    const server = await serve(req => req.socket.destroy())
    const { error } = await rejection(session().send(request(server.url, { method: 'POST' })))
    expect(error).toMatchObject({ code: 'UND_ERR_SOCKET', sent: 'maybe' })
    expect(server.requests).toHaveLength(1)
  })

  it('gives up waiting for the answer when the signal aborts, as maybe sent', async () => {
    // The server never answers: only the abort can end the request.
    const server = await serve(() => {})
    const s = session()
    const controller = new AbortController()
    const pending = rejection(s.send(request(server.url, { signal: controller.signal })))
    await server.received(1)
    controller.abort(new Error('aborted by the test'))
    const { error } = await pending
    expect(error).toMatchObject({ code: 'ABORTED', sent: 'maybe' })
  })
})

describe('HttpSession, behind a proxy', () => {
  it('tunnels https through HTTPS_PROXY, TLS end to end, keeping the tunnel for reads', async () => {
    const server = await serve((_req, res) => res.end('{"via":"tunnel"}'), true)
    const proxy = await LoopbackProxy.start()
    cleanup.push(() => proxy.close())
    const s = session({ HTTPS_PROXY: proxy.url })
    const url = `https://mintlify.proxied.test:${server.port}/v1/x`
    expect((await s.send(request(url))).text).toBe('{"via":"tunnel"}')
    await pause()
    expect((await s.send(request(url))).status).toBe(200)
    expect(proxy.targets).toEqual([`mintlify.proxied.test:${server.port}`])
    expect(server.requests[0]?.headers.host).toBe(`mintlify.proxied.test:${server.port}`)
  })

  it('fails an untrusted certificate inside the tunnel with its code, as not sent', async () => {
    const server = await serve((_req, res) => res.end('{}'), true)
    const proxy = await LoopbackProxy.start()
    cleanup.push(() => proxy.close())
    const s = session({ HTTPS_PROXY: proxy.url }, false)
    const url = `https://mintlify.proxied.test:${server.port}/`
    const { error } = await rejection(s.send(request(url, { method: 'POST' })))
    expect(error).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', sent: 'no' })
    expect(server.requests).toHaveLength(0)
  })

  it('sends the credentials of the proxy URL, percent-decoded', async () => {
    const server = await serve((_req, res) => res.end('{}'), true)
    const proxy = await LoopbackProxy.start({ credentials: 'build:s3cr%t' })
    cleanup.push(() => proxy.close())
    const s = session({ HTTPS_PROXY: proxy.url.replace('//', '//build:s3cr%25t@') })
    const res = await s.send(request(`https://mintlify.proxied.test:${server.port}/`))
    expect(res.status).toBe(200)
  })

  it('fails a 407 as PROXY_AUTH, not sent, without echoing the credentials', async () => {
    const proxy = await LoopbackProxy.start({ credentials: 'build:secret' })
    cleanup.push(() => proxy.close())
    const s = session({ HTTPS_PROXY: proxy.url.replace('//', '//build:wrong-pw@') })
    const { error } = await rejection(
      s.send(request('https://mintlify.proxied.test/', { method: 'POST' }))
    )
    expect(error).toMatchObject({ code: 'PROXY_AUTH', sent: 'no' })
    expect(error.message).toMatch(/http:\/\/user:password@127\.0\.0\.1:\d+/)
    expect(error.message).not.toMatch(/build|wrong-pw/)
  })

  it('fails any other refusal of CONNECT as PROXY_REFUSED, not sent', async () => {
    const refusing = await TcpProbe.proxy(403)
    cleanup.push(() => refusing.close())
    const s = session({ HTTPS_PROXY: refusing.url })
    const { error } = await rejection(s.send(request('https://mintlify.proxied.test/')))
    expect(error).toMatchObject({ code: 'PROXY_REFUSED', sent: 'no' })
    expect(error.message).toContain('(HTTP 403)')
  })

  it('never sends plain http to a proxy: it goes direct, where only loopback is allowed', async () => {
    const proxy = await probe()
    const s = session({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url })
    const signal = AbortSignal.timeout(2000)
    const { error } = await rejection(
      s.send(request('http://mintlify.proxied.test:8080/', { signal }))
    )
    // Not a name anything resolves outside the proxy: the direct connection fails, unsent.
    expect(error).toMatchObject({ sent: 'no' })
    await proxy.settled()
    expect(proxy.accepted).toBe(0)
  })

  it('never proxies loopback, following the toolkit', async () => {
    const server = await serve((_req, res) => res.end('{}'))
    const proxy = await probe()
    const s = session({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url })
    expect((await s.send(request(server.url))).status).toBe(200)
    await proxy.settled()
    expect(proxy.accepted).toBe(0)
  })

  it('fails on a proxy variable it cannot use, naming it, before any connection', async () => {
    const s = session({ HTTPS_PROXY: 'proxy.corp:3128' })
    const { error } = await rejection(s.send(request('https://api.mintlify.com/')))
    expect(error).toMatchObject({ code: 'PROXY_CONFIG', sent: 'no' })
    expect(error.message).toContain('HTTPS_PROXY')
    expect(error.message).not.toContain('proxy.corp')
  })
})

// undici's maxResponseSize, set on the Agent and on the ProxyAgent (which hands its options to the
// Agent behind the tunnel): both ways, an answer past the cap fails as RESPONSE_TOO_LARGE.
describe.each([
  { way: 'direct', proxied: false },
  { way: 'through a proxy tunnel', proxied: true }
])('HttpSession, an answer past maxResponseBytes, $way', ({ proxied }) => {
  const LIMIT = 10_000

  async function target(handle: Parameters<typeof serve>[0]) {
    const server = await serve(handle, true)
    if (!proxied) return { s: session({}, true, LIMIT), url: server.url }
    const proxy = await LoopbackProxy.start()
    cleanup.push(() => proxy.close())
    const s = session({ HTTPS_PROXY: proxy.url }, true, LIMIT)
    return { s, url: `https://mintlify.proxied.test:${server.port}/` }
  }

  it('is refused when it declares its length', async () => {
    const { s, url } = await target((_req, res) => {
      res.writeHead(200, { 'content-length': 2 * LIMIT })
      res.end('x'.repeat(2 * LIMIT))
    })
    const { error } = await rejection(s.send(request(url)))
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', sent: 'maybe' })
    expect(error.message).toBe(`the answer is larger than ${LIMIT} bytes`)
  })

  it('is refused when it comes in chunks without a length, and the connection is closed', async () => {
    let streamClosed: () => void = () => {}
    const closed = new Promise<void>(resolve => (streamClosed = resolve))
    const { s, url } = await target((_req, res) => {
      res.on('close', streamClosed)
      let chunks = 0
      const more = (): void => {
        // At most 4 MB, unless the client stops reading first.
        if (res.destroyed || ++chunks > 4096) return void res.end()
        res.write('y'.repeat(1024), () => setImmediate(more))
      }
      more()
    })
    const { error } = await rejection(s.send(request(url)))
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', sent: 'maybe' })
    // The server sees its answer cut off (else it would write its 4 MB to the end).
    await closed
  })

  it('is read whole at exactly the limit', async () => {
    const { s, url } = await target((_req, res) => res.end('z'.repeat(LIMIT)))
    expect((await s.send(request(url))).text).toHaveLength(LIMIT)
  })
})

// Each of these fails without its workaround in src/mintlify: undici ignores the abort signal
// until a connection is up or has failed, and opens a connection the proxy closed again at once.
describe("HttpSession, undici's traps", () => {
  it('a proxy that never answers CONNECT: rejects at the abort, and lets go', async () => {
    const silent = await probe()
    const s = session({ HTTPS_PROXY: silent.url })
    for (const attempt of [1, 2]) {
      const error = await abortedAtOnce(
        silent.until(() => silent.firstChunks.length === attempt),
        signal => s.send(request('https://mintlify.proxied.test/', { signal }))
      )
      expect(error).toMatchObject({ code: 'ABORTED', sent: 'no' })
      // The stuck connection is closed and the next request gets a new one.
      expect(silent.accepted).toBe(attempt)
      await silent.until(() => silent.closed === attempt)
    }
  })

  it('a proxy that closes the connection on CONNECT: one attempt, PROXY_REFUSED', async () => {
    for (const when of ['on CONNECT', 'on accept']) {
      const closing = await probe(socket =>
        when === 'on accept' ? socket.destroy() : socket.once('data', () => socket.destroy())
      )
      const s = session({ HTTPS_PROXY: closing.url })
      // No time limit: a client that kept reconnecting would never end.
      const { error } = await rejection(
        s.send(request('https://mintlify.proxied.test/', { signal: never }))
      )
      expect(error).toMatchObject({ code: 'PROXY_REFUSED', sent: 'no' })
      expect(error.message).toContain('closed the connection')
      // Every connection it had started has reached the proxy: no more than one retry.
      await s.close()
      await closing.settled()
      expect(closing.accepted).toBeLessThanOrEqual(2)
    }
  })

  it('a TLS handshake that never ends: rejects at the abort, and closes it', async () => {
    const silent = await probe()
    const url = silent.url.replace('http:', 'https:')
    const s = session()
    const error = await abortedAtOnce(
      silent.until(() => silent.firstChunks.length === 1),
      signal => s.send(request(url, { signal }))
    )
    expect(error).toMatchObject({ code: 'ABORTED', sent: 'no' })
    await silent.until(() => silent.closed === 1)
  })

  it('the same inside a tunnel: rejects at the abort, and closes it', async () => {
    const silent = await probe()
    const tunnel = await TcpProbe.proxy(200, silent.port)
    cleanup.push(() => tunnel.close())
    const s = session({ HTTPS_PROXY: tunnel.url })
    const error = await abortedAtOnce(
      silent.until(() => silent.firstChunks.length === 1),
      signal => s.send(request('https://mintlify.proxied.test/', { signal }))
    )
    expect(error).toMatchObject({ code: 'ABORTED', sent: 'no' })
    await silent.until(() => silent.accepted === 1 && silent.closed === 1)
  })
})

describe('HttpSession.close', () => {
  it('leaves nothing that keeps the process alive: the process ends by itself', async () => {
    const server = await serve((_req, res) => res.end('{}'))
    const silent = await probe()
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('../support/http-session-child.ts', import.meta.url)),
        server.url,
        silent.url
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] }
    )
    let output = ''
    const printed = new Promise<void>(resolve =>
      child.stdout.on('data', chunk => {
        output += chunk
        if (output.includes('{')) resolve()
      })
    )
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    // A process held by the stuck connection would not end by itself: killed at its limit, it
    // fails the test with the signal, before the test's own time limit.
    limitChild(child, 20_000, line => (output += line))
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill()
    })
    // The request is stuck at the proxy, which holds its connection: the child may close now.
    await silent.until(() => silent.firstChunks.length === 1)
    child.stdin.end('close\n')
    await printed
    const [code, signal] = await exited
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    const result = JSON.parse(output.slice(output.indexOf('{'))) as {
      status: number
      stuck: string
      baseline: string[]
      holding: string[]
    }
    expect(result.status).toBe(200)
    // close() ended the stuck request, whose signal never aborts, as never sent.
    expect(result.stuck).toMatch(/ no$/)
    // Nothing the session opened (a socket, a timer) still holds the event loop after close().
    expect(result.holding).toEqual(result.baseline)
    expect(silent.accepted).toBe(1)
    await silent.until(() => silent.closed === 1)
  })

  it('closes idle keep-alive connections and refuses new requests', async () => {
    // Both sides would keep the idle connection for 10 minutes: only close() can end it now.
    const server = await serve((_req, res) => res.end('{}'), false, 600_000)
    const s = session()
    await s.send(request(server.url))
    await s.close()
    await server.closed(1)
    const { error } = await rejection(s.send(request(server.url)))
    expect(error).toMatchObject({ code: 'CLOSED', sent: 'no' })
    expect(server.connections).toBe(1)
  })
})

describe('proxyFor', () => {
  const target = new URL('https://api.mintlify.com/v1')
  /** proxyFor with the runner's proxy variables set to `env`. */
  const proxyWith = (url: URL, env: Record<string, string>) => {
    stubProxyEnv(env)
    return proxyFor(url)
  }

  it("follows the toolkit's rule, from the runner's environment", () => {
    const env = { HTTPS_PROXY: 'http://build:s3cr%25t@proxy.corp:3128', HTTP_PROXY: 'http://p:80' }
    expect(proxyWith(target, env)?.href).toBe('http://build:s3cr%25t@proxy.corp:3128/')
    expect(proxyWith(new URL('http://api.mintlify.com'), env)?.host).toBe('p')
    expect(proxyWith(new URL('https://127.0.0.1:8443'), env)).toBeUndefined()
    expect(proxyWith(new URL('https://localhost'), env)).toBeUndefined()
    expect(proxyWith(target, { ...env, NO_PROXY: 'example.com, mintlify.com' })).toBeUndefined()
    expect(proxyWith(target, { https_proxy: 'http://lower:1', HTTPS_PROXY: env.HTTPS_PROXY })?.host)
      .toBe('lower:1') // prettier-ignore
    expect(proxyWith(target, { HTTPS_PROXY: '10.0.0.1:3128' })?.href).toBe('http://10.0.0.1:3128/')
    expect(proxyWith(target, {})).toBeUndefined()
  })

  it('rejects a value the toolkit would misread, naming the variable and not the value', () => {
    for (const value of [
      'proxy.corp:3128',
      'http://build:p%zz@proxy.corp:3128',
      'socks5://proxy.corp:1080',
      'http://[proxy.corp'
    ]) {
      let error: unknown
      try {
        proxyWith(target, { https_proxy: value })
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ProxyConfigError)
      expect((error as ProxyConfigError).variable).toBe('https_proxy')
      expect((error as Error).message).not.toContain('proxy.corp')
    }
  })
})
