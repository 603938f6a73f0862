import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../simulator/server.js'
import { runAction } from '../support/run-action.js'

let sim: Simulator
let certFile: string
beforeAll(async () => {
  // A throwaway certificate for 127.0.0.1, trusted by the action only through NODE_EXTRA_CA_CERTS.
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
      'subjectAltName=IP:127.0.0.1',
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
})
