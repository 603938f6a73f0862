import { describe, expect, it } from 'vitest'
import { escapeMarkdown } from '../../src/runner/markdown.js'
import { Redactor, redact, redactedJson, secretForms } from '../../src/runner/redact.js'

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

describe('redactedJson', () => {
  const key = 'mint_0123456789abcdef'
  const forms = secretForms([key])

  it('parses an answer with no secret in it as it is', () => {
    const text = '{"visitors":[{"path":"/a","human":1}],"hasMore":false}'
    expect(redactedJson(text, forms)).toEqual(JSON.parse(text))
  })

  it.each([
    ['written out', `{"echo":"${key}"}`],
    ['as a key', `{"${key}":1}`],
    ['behind JSON escapes', `{"echo":"mint\\u005f0123456789abcdef"}`],
    ['with an escaped quote before it', `{"echo":"\\"${key}"}`],
    ['percent-encoded', `{"echo":"mint%5F0123456789abcdef"}`]
  ])('redacts a secret %s, as in every string of the parsed answer', (_name, text) => {
    const value = redactedJson(text, forms)
    expect(JSON.stringify(value)).not.toContain('0123456789abcdef')
    expect(JSON.stringify(value)).toContain('***')
  })
})

describe('Redactor', () => {
  const key = 'mint_sim_0123456789abcdef'
  const token = 'ghs_a|b"c\\d_token'
  const redactor = new Redactor([key, undefined, token, ''])

  it.each([
    ['as written', key],
    ['Markdown-escaped, as a summary line shows it', escapeMarkdown(key)],
    ['Markdown-escaped with its reserved characters', escapeMarkdown(token)],
    ['as a table cell escapes it', token.replace(/\|/g, '\\|')],
    ['JSON-escaped, as a report file or JSON output holds it', JSON.stringify(token).slice(1, -1)],
    ['percent-encoded', encodeURIComponent(token)],
    ['percent-encoded in a Markdown link', encodeURIComponent(key).replace(/_/g, '%5F')]
  ])('removes a secret %s from a text', (_name, form) => {
    expect(redactor.text(`before ${form} after`)).toBe('before *** after')
  })

  it('redacts every string of a value, and keeps its shape', () => {
    const report = {
      title: `pasted ${key}`,
      count: 3,
      none: null,
      terms: [escapeMarkdown(key), 'ok']
    }
    expect(redactor.value(report)).toEqual({
      title: 'pasted ***',
      count: 3,
      none: null,
      terms: ['***', 'ok']
    })
    expect(report.title).toBe(`pasted ${key}`)
  })
})
