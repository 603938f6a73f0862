import { describe, expect, it } from 'vitest'
import { redact, secretForms } from '../../src/runner/redact.js'

const KEY = 'mint_sim_0123456789abcdef'
const forms = secretForms([KEY, 'ghs_tok/en+é'])
const encodeEvery = (text: string, hex: (h: string) => string): string =>
  Array.from(Buffer.from(text), b => `%${hex(b.toString(16).padStart(2, '0'))}`).join('')

describe('redact', () => {
  it.each([
    ['every byte, upper case', encodeEvery(KEY, h => h.toUpperCase())],
    ['every byte, lower case', encodeEvery(KEY, h => h)],
    ['every byte, mixed case', encodeEvery(KEY, h => (h.charCodeAt(1) % 2 ? h.toUpperCase() : h))],
    ['some bytes, the rest plain', `mint_%73im_0123%34567%38%39abc%64ef`],
    ['a token with its reserved and non-ASCII characters encoded', 'ghs_tok%2Fen%2b%C3%A9'],
    ['a token with everything encoded', encodeEvery('ghs_tok/en+é', h => h)],
    ['the base64 form, percent-encoded', encodeEvery(Buffer.from(KEY).toString('base64'), h => h)]
  ])('removes a secret with %s', (_name, echoed) => {
    expect(redact(`before ${echoed} after`, forms)).toBe('before *** after')
  })

  it('leaves ordinary percent-encoded text alone', () => {
    const text = 'https://example.com/a%20b?q=%6D%69nt_ 100% sure'
    expect(redact(text, forms)).toBe(text)
  })
})
