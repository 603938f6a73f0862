import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { LoopbackProxy } from '../support/proxy.js'
import { runAction } from '../support/run-action.js'

let sim: Simulator
let certFile: string
beforeAll(async () => {
  // A throwaway certificate for 127.0.0.1 (and a name only the test proxy resolves), trusted by the action only through NODE_EXTRA_CA_CERTS.
  const dir = mkdtempSync(path.join(tmpdir(), 'sim-tls-'))
  const keyFile = path.join(dir, 'key.pem')
  certFile = path.join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:mintlify.proxied.test',
      '-keyout',
      keyFile,
      '-out',
      certFile
    ],
    { stdio: 'ignore' }
  )
  sim = await Simulator.start({
    job: { durationMs: 300 },
    tls: { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') }
  })
})
afterAll(() => sim.close())

const inputs = () => ({
  'api-key': SIM_API_KEY,
  'project-id': SIM_PROJECT,
  'api-url': sim.url,
  prompt: 'Over TLS',
  'poll-interval': '1s'
})

describe('the bundled action over https', () => {
  it('runs a job end to end against an https service', async () => {
    expect(sim.url).toMatch(/^https:/)
    const result = await runAction({ inputs: inputs(), env: { NODE_EXTRA_CA_CERTS: certFile } })
    expect(result.code).toBe(0)
    expect(result.outputs.result).toBe('pr-opened')
  })

  it('fails at once, with what to do, on a certificate it does not trust', async () => {
    sim.reset()
    const result = await runAction({ inputs: { ...inputs(), timeout: '10m' } })
    expect(result.code).toBe(1)
    expect(result.log).toMatch(
      /::error::The TLS certificate of 127.0.0.1:\d+ is not trusted \(\w+\)\. Check 'api-url'; for a private certificate authority, set NODE_EXTRA_CA_CERTS/
    )
    expect(result.durationMs).toBeLessThan(5000)
    expect(sim.exchanges).toHaveLength(0)
  })

  describe('behind a proxy (HTTPS_PROXY)', () => {
    let proxy: LoopbackProxy
    // Not a loopback name, which is never proxied; the proxy maps it back to the simulator.
    const proxiedUrl = () => sim.url.replace('127.0.0.1', 'mintlify.proxied.test')
    afterEach(() => proxy.close())

    it('tunnels every request through the proxy, TLS end to end', async () => {
      proxy = await LoopbackProxy.start()
      sim.reset()
      const result = await runAction({
        inputs: { ...inputs(), 'api-url': proxiedUrl() },
        env: { NODE_EXTRA_CA_CERTS: certFile, HTTPS_PROXY: proxy.url }
      })
      expect(result.code).toBe(0)
      expect(result.outputs.result).toBe('pr-opened')
      expect(proxy.targets.length).toBeGreaterThanOrEqual(1)
      expect(new Set(proxy.targets)).toEqual(new Set([new URL(proxiedUrl()).host]))
      expect(sim.exchanges.length).toBeGreaterThanOrEqual(2)
    })

    it('sends the credentials in the proxy URL, and never shows them', async () => {
      proxy = await LoopbackProxy.start({ credentials: 'build:s3cr%t' })
      sim.reset()
      const result = await runAction({
        inputs: { ...inputs(), 'api-url': proxiedUrl() },
        env: {
          NODE_EXTRA_CA_CERTS: certFile,
          HTTPS_PROXY: proxy.url.replace('//', '//build:s3cr%25t@')
        }
      })
      expect(result.code).toBe(0)
      expect(proxy.targets.length).toBeGreaterThanOrEqual(1)
      expect(result.log).not.toContain('s3cr')
    })

    it('fails at once, saying what to do, when the proxy wants credentials it did not get', async () => {
      proxy = await LoopbackProxy.start({ credentials: 'build:secret' })
      sim.reset()
      const result = await runAction({
        inputs: { ...inputs(), 'api-url': proxiedUrl(), timeout: '10m' },
        env: { NODE_EXTRA_CA_CERTS: certFile, HTTPS_PROXY: proxy.url }
      })
      expect(result.code).toBe(1)
      expect(result.log).toMatch(
        /::error::.*the proxy 127\.0\.0\.1:\d+ asks for credentials \(407\): put them in the proxy variable as http:\/\/user:password@127\.0\.0\.1:\d+/
      )
      expect(result.durationMs).toBeLessThan(5000)
      expect(sim.exchanges).toHaveLength(0)
    })

    it('goes direct for hosts in NO_PROXY', async () => {
      proxy = await LoopbackProxy.start()
      sim.reset()
      // Direct, the test name resolves nowhere: the run can only fail, and the proxy sees nothing.
      const result = await runAction({
        inputs: { ...inputs(), 'api-url': proxiedUrl(), timeout: '3s' },
        env: {
          NODE_EXTRA_CA_CERTS: certFile,
          HTTPS_PROXY: proxy.url,
          NO_PROXY: 'example.com, .proxied.test'
        }
      })
      expect(result.code).toBe(1)
      expect(result.log).toMatch(/cannot reach mintlify\.proxied\.test:\d+: (ENOTFOUND|EAI_AGAIN)/)
      expect(proxy.targets).toHaveLength(0)
    })
  })
})
