import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { perWorker } from './per-worker.js'
import { temporaryFolder } from './temporary.js'

export interface TestCertificate {
  key: string
  cert: string
  /** The certificate's file, for NODE_EXTRA_CA_CERTS; removed after the test file. */
  certFile: string
}

/**
 * A throwaway self-signed certificate for 127.0.0.1 and mintlify.proxied.test (a name only the
 * test proxies resolve), made with openssl once per worker. Nothing trusts it unless told to.
 */
export function testCertificate(): TestCertificate {
  const { key, cert } = perWorker('test-certificate', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mintlify-tls-'))
    const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')]
    try {
      execFileSync(
        'openssl',
        [
          'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
          '-days', '1', '-subj', '/CN=127.0.0.1',
          '-addext', 'subjectAltName=IP:127.0.0.1,DNS:mintlify.proxied.test',
          '-keyout', keyFile, '-out', certFile
        ], // prettier-ignore
        { stdio: 'ignore' }
      )
      return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  // The file is the test file's: the worker's next file gets its own.
  const certFile = path.join(temporaryFolder('mintlify-tls-'), 'cert.pem')
  writeFileSync(certFile, cert)
  return { key, cert, certFile }
}
